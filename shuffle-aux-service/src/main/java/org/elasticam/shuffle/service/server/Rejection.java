package org.elasticam.shuffle.service.server;

/**
 * A request answered with an error: the status, a short text body, and whether the connection may
 * stay open (only when the request was framed well enough that the next one can be found).
 */
record Rejection(int status, String message, boolean keepAlive) {

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
