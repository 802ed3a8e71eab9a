package org.elasticam.shuffle.service.state;

import java.io.IOException;

/**
 * A recovery store written by a version of the service with another major schema version: this
 * one refuses to start rather than misread it or throw it away.
 */
public final class IncompatibleStateException extends IOException {

  private static final long serialVersionUID = 1L;

  public IncompatibleStateException(String message) {
    super(message);
  }
}
