package org.elasticam.shuffle.service.server;

import java.io.IOException;
import java.nio.file.Path;

/** An opened map output file that the application's user does not own; the request gets 403. */
public final class ForeignOwnerException extends IOException {

  private static final long serialVersionUID = 1L;

  private final String owner;
  private final String expected;

  public ForeignOwnerException(Path file, String owner, String expected) {
    super("owner '" + owner + "' of " + file + " is not the application's user '" + expected + "'");
    this.owner = owner;
    this.expected = expected;
  }

  public String owner() {
    return owner;
  }

  public String expected() {
    return expected;
  }
}
