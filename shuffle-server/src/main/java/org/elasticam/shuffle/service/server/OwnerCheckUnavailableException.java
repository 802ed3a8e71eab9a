package org.elasticam.shuffle.service.server;

import java.io.IOException;

/** Owners must be checked and this NodeManager cannot do it: the request gets 500, nothing is served. */
public final class OwnerCheckUnavailableException extends IOException {

  private static final long serialVersionUID = 1L;

  OwnerCheckUnavailableException(String why) {
    super("the shuffle service cannot check file owners on this NodeManager: " + why);
  }
}
