package org.elasticam.shuffle.layout;

import java.io.IOException;

/** An index file that does not check out: wrong magic, size, version or an entry's checksum. */
public final class CorruptIndexException extends IOException {

  private static final long serialVersionUID = 1L;

  public CorruptIndexException(String message) {
    super(message);
  }

  public CorruptIndexException(String message, Throwable cause) {
    super(message, cause);
  }
}
