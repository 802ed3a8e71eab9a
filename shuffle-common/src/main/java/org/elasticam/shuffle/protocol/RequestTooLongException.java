package org.elasticam.shuffle.protocol;

/** A request that names more than the protocol's caps allow in text: the service answers 414. */
public final class RequestTooLongException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  public RequestTooLongException(String message) {
    super(message);
  }
}
