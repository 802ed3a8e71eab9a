package org.elasticam.shuffle.client;

import java.time.Duration;
import java.util.Collections;
import java.util.Objects;
import javax.net.ssl.SSLContext;
import org.elasticam.conf.ElasticConf;
import org.elasticam.conf.ShuffleKeys;

/** The fetch client's limits. */
public final class ClientSettings {

  private final long maxBytesInFlight;
  private final int maxRequestsInFlight;
  private final int maxRetries;
  private final Duration retryWait;
  private final Duration connectTimeout;
  private final Duration readTimeout;
  private final int maxIdlePerHost;
  private final Duration maxIdleTime;
  private final SSLContext sslContext;

  /**
   * @param maxBytesInFlight fetched bytes held (received and not yet closed by the caller) at once;
   *     a response larger than this proceeds only when it is alone
   * @param maxRequestsInFlight requests outstanding at once, each on its own thread and connection
   * @param maxRetries retries after a connection-level failure, 429 or 503
   * @param retryWait the wait before a retry, unless the service said Retry-After
   * @param connectTimeout connecting
   * @param readTimeout a read without progress
   * @param maxIdlePerHost idle keep-alive connections kept per service
   * @param maxIdleTime an idle connection older than this is closed, not reused (the service closes
   *     idle connections after its own timeout)
   * @param sslContext for services with TLS; null when none is expected
   */
  public ClientSettings(long maxBytesInFlight, int maxRequestsInFlight, int maxRetries, Duration retryWait,
      Duration connectTimeout, Duration readTimeout, int maxIdlePerHost, Duration maxIdleTime, SSLContext sslContext) {
    if (maxBytesInFlight < 1 || maxRequestsInFlight < 1 || maxRetries < 0 || maxIdlePerHost < 0) {
      throw new IllegalArgumentException("bad client limits");
    }
    Objects.requireNonNull(retryWait, "retryWait");
    Objects.requireNonNull(connectTimeout, "connectTimeout");
    Objects.requireNonNull(readTimeout, "readTimeout");
    Objects.requireNonNull(maxIdleTime, "maxIdleTime");
    this.maxBytesInFlight = maxBytesInFlight;
    this.maxRequestsInFlight = maxRequestsInFlight;
    this.maxRetries = maxRetries;
    this.retryWait = retryWait;
    this.connectTimeout = connectTimeout;
    this.readTimeout = readTimeout;
    this.maxIdlePerHost = maxIdlePerHost;
    this.maxIdleTime = maxIdleTime;
    this.sslContext = sslContext;
  }

  public long maxBytesInFlight() {
    return maxBytesInFlight;
  }

  public int maxRequestsInFlight() {
    return maxRequestsInFlight;
  }

  public int maxRetries() {
    return maxRetries;
  }

  public Duration retryWait() {
    return retryWait;
  }

  public Duration connectTimeout() {
    return connectTimeout;
  }

  public Duration readTimeout() {
    return readTimeout;
  }

  public int maxIdlePerHost() {
    return maxIdlePerHost;
  }

  public Duration maxIdleTime() {
    return maxIdleTime;
  }

  public SSLContext sslContext() {
    return sslContext;
  }

  /** From the {@code elasticam.shuffle.client.*} keys. */
  public static ClientSettings from(ElasticConf conf) {
    return new ClientSettings(conf.get(ShuffleKeys.CLIENT_MAX_BYTES_IN_FLIGHT).bytes(),
        conf.get(ShuffleKeys.CLIENT_MAX_REQUESTS_IN_FLIGHT), conf.get(ShuffleKeys.CLIENT_MAX_RETRIES),
        conf.get(ShuffleKeys.CLIENT_RETRY_WAIT), conf.get(ShuffleKeys.CLIENT_CONNECT_TIMEOUT),
        conf.get(ShuffleKeys.CLIENT_READ_TIMEOUT), 4, Duration.ofSeconds(30), null);
  }

  /** The keys' defaults. */
  public static ClientSettings defaults() {
    return from(ElasticConf.of(Collections.emptyMap()));
  }

  public ClientSettings withRetries(int retries, Duration wait) {
    return new ClientSettings(maxBytesInFlight, maxRequestsInFlight, retries, wait, connectTimeout, readTimeout,
        maxIdlePerHost, maxIdleTime, sslContext);
  }

  public ClientSettings withInFlight(long bytes, int requests) {
    return new ClientSettings(bytes, requests, maxRetries, retryWait, connectTimeout, readTimeout, maxIdlePerHost,
        maxIdleTime, sslContext);
  }

  public ClientSettings withSsl(SSLContext context) {
    return new ClientSettings(maxBytesInFlight, maxRequestsInFlight, maxRetries, retryWait, connectTimeout,
        readTimeout, maxIdlePerHost, maxIdleTime, context);
  }

  public ClientSettings withTimeouts(Duration connect, Duration read) {
    return new ClientSettings(maxBytesInFlight, maxRequestsInFlight, maxRetries, retryWait, connect, read,
        maxIdlePerHost, maxIdleTime, sslContext);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ClientSettings)) {
      return false;
    }
    ClientSettings other = (ClientSettings) o;
    return maxBytesInFlight == other.maxBytesInFlight && maxRequestsInFlight == other.maxRequestsInFlight
        && maxRetries == other.maxRetries && Objects.equals(retryWait, other.retryWait)
        && Objects.equals(connectTimeout, other.connectTimeout) && Objects.equals(readTimeout, other.readTimeout)
        && maxIdlePerHost == other.maxIdlePerHost && Objects.equals(maxIdleTime, other.maxIdleTime)
        && Objects.equals(sslContext, other.sslContext);
  }

  @Override
  public int hashCode() {
    int h = Long.hashCode(maxBytesInFlight);
    h = 31 * h + Integer.hashCode(maxRequestsInFlight);
    h = 31 * h + Integer.hashCode(maxRetries);
    h = 31 * h + Objects.hashCode(retryWait);
    h = 31 * h + Objects.hashCode(connectTimeout);
    h = 31 * h + Objects.hashCode(readTimeout);
    h = 31 * h + Integer.hashCode(maxIdlePerHost);
    h = 31 * h + Objects.hashCode(maxIdleTime);
    return 31 * h + Objects.hashCode(sslContext);
  }

  @Override
  public String toString() {
    return "ClientSettings[maxBytesInFlight=" + maxBytesInFlight + ", maxRequestsInFlight=" + maxRequestsInFlight
        + ", maxRetries=" + maxRetries + ", retryWait=" + retryWait + ", connectTimeout=" + connectTimeout
        + ", readTimeout=" + readTimeout + ", maxIdlePerHost=" + maxIdlePerHost + ", maxIdleTime=" + maxIdleTime
        + ", sslContext=" + sslContext + "]";
  }
}
