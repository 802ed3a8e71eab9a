package org.elasticam.shuffle.service.server;

/** Carries a {@link Rejection} out of blocking file work. */
final class RejectedException extends Exception {

  private static final long serialVersionUID = 1L;

  private final transient Rejection rejection;

  RejectedException(Rejection rejection) {
    super(rejection.message(), null, false, false);
    this.rejection = rejection;
  }

  Rejection rejection() {
    return rejection;
  }
}
