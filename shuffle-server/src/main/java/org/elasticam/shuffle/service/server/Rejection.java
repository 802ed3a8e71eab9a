package org.elasticam.shuffle.service.server;

/**
 * A request answered with an error: the status, a short text body, and whether the connection may
 * stay open (only when the request was framed well enough that the next one can be found).
 */
final class Rejection {

  private final int status;
  private final String message;
  private final boolean keepAlive;

  Rejection(int status, String message, boolean keepAlive) {
    this.status = status;
    this.message = message;
    this.keepAlive = keepAlive;
  }

  public int status() {
    return status;
  }

  public String message() {
    return message;
  }

  public boolean keepAlive() {
    return keepAlive;
  }

  static Rejection of(int status, String message) {
    return new Rejection(status, message, true);
  }

  static Rejection closing(int status, String message) {
    return new Rejection(status, message, false);
  }

  Rejection closing() {
    return new Rejection(status, message, false);
  }
}
