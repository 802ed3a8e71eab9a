package org.elasticam.shuffle.service.state;

import java.io.IOException;

/** A recovery journal that does not check out: bad magic, a header or record failing its checksum. */
final class CorruptStateException extends IOException {

  private static final long serialVersionUID = 1L;

  CorruptStateException(String message) {
    super(message);
  }
}
