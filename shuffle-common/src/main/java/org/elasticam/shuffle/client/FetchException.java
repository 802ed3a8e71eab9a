package org.elasticam.shuffle.client;

import java.io.IOException;
import java.time.Duration;

/**
 * A request that did not succeed: a status from the service ({@link #status()} > 0, with its text)
 * or a connection-level failure ({@link #status()} == 0). {@link #retryable()} says whether the
 * same request may succeed later (connection failures, 429, 503); the client has already retried
 * those up to its limit when this reaches the caller.
 */
public class FetchException extends IOException {

  private static final long serialVersionUID = 1L;

  private final int status;
  private final boolean retryable;
  private final transient Duration retryAfter;

  public FetchException(String message, int status, boolean retryable, Duration retryAfter, Throwable cause) {
    super(message, cause);
    this.status = status;
    this.retryable = retryable;
    this.retryAfter = retryAfter;
  }

  static FetchException connection(String message, Throwable cause) {
    return new FetchException(message, 0, true, null, cause);
  }

  /** The HTTP status, or 0 for a failure below HTTP. */
  public int status() {
    return status;
  }

  public boolean retryable() {
    return retryable;
  }

  /** What the service asked for with Retry-After, or null. */
  public Duration retryAfter() {
    return retryAfter;
  }
}
