package org.elasticam.am.client;

/** A user mistake: bad arguments or configuration. Exit code 2, one line, no stack trace. */
public final class UsageException extends Exception {

  private static final long serialVersionUID = 1L;

  public UsageException(String message) {
    super(message);
  }
}
