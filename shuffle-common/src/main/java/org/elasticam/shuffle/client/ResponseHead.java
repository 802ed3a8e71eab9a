package org.elasticam.shuffle.client;

import java.time.Duration;
import java.util.Map;

/** A response's status line and headers (names lower-cased). */
final class ResponseHead {

  private final int status;
  private final Map<String, String> headers;
  private final boolean http11;

  ResponseHead(int status, Map<String, String> headers, boolean http11) {
    this.status = status;
    this.headers = headers;
    this.http11 = http11;
  }

  public int status() {
    return status;
  }

  public Map<String, String> headers() {
    return headers;
  }

  public boolean http11() {
    return http11;
  }

  /** -1 when absent or unreadable. */
  long contentLength() {
    String v = headers.get("content-length");
    try {
      return v == null ? -1 : Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  boolean keepAlive() {
    String c = headers.getOrDefault("connection", "");
    return http11 ? !c.equalsIgnoreCase("close") : c.equalsIgnoreCase("keep-alive");
  }

  /** Retry-After in seconds (the only form our service sends), or null. */
  Duration retryAfter() {
    String v = headers.get("retry-after");
    try {
      return v == null ? null : Duration.ofSeconds(Math.min(3600, Math.max(0, Long.parseLong(v.trim()))));
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
