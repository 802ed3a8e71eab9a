package org.elasticam.shuffle.service.server;

import java.time.Duration;
import java.util.Objects;

/** The network front's limits. */
public final class ServerSettings {

  private final String host;
  private final int port;
  private final int maxConnections;
  private final Duration retryAfter;
  private final long maxInFlightBytes;
  private final Duration idleTimeout;
  private final int ioThreads;
  private final int diskThreads;
  private final Duration signatureMaxAge;
  private final long indexCacheBytes;
  private final int maxOpenFiles;
  private final boolean nativeTransport;

  /**
   * @param host address to bind, or null for all interfaces
   * @param port 0 for any
   * @param maxConnections open connections served at once; the next gets 429
   * @param retryAfter what 429 and 503 tell the client
   * @param maxInFlightBytes bytes of accepted responses not yet written; further fetches wait
   * @param idleTimeout a connection with no read and no write progress this long is closed
   * @param ioThreads event loops (0 = Netty's default, 2 x cores)
   * @param diskThreads threads that open files off the event loops
   * @param signatureMaxAge how far a request's timestamp may be from now
   * @param indexCacheBytes memory for indexes kept between fetches; 0 reads each index every time
   * @param maxOpenFiles data files kept open between fetches; 0 opens them for each fetch
   * @param nativeTransport Netty's native epoll transport where its library loads; false for NIO
   */
  public ServerSettings(String host, int port, int maxConnections, Duration retryAfter, long maxInFlightBytes,
      Duration idleTimeout, int ioThreads, int diskThreads, Duration signatureMaxAge, long indexCacheBytes,
      int maxOpenFiles, boolean nativeTransport) {
    if (port < 0 || port > 65535 || maxConnections < 1 || maxInFlightBytes < 1 || ioThreads < 0 || diskThreads < 1
        || indexCacheBytes < 0 || maxOpenFiles < 0) {
      throw new IllegalArgumentException("bad server settings");
    }
    Objects.requireNonNull(retryAfter, "retryAfter");
    Objects.requireNonNull(idleTimeout, "idleTimeout");
    Objects.requireNonNull(signatureMaxAge, "signatureMaxAge");
    this.host = host;
    this.port = port;
    this.maxConnections = maxConnections;
    this.retryAfter = retryAfter;
    this.maxInFlightBytes = maxInFlightBytes;
    this.idleTimeout = idleTimeout;
    this.ioThreads = ioThreads;
    this.diskThreads = diskThreads;
    this.signatureMaxAge = signatureMaxAge;
    this.indexCacheBytes = indexCacheBytes;
    this.maxOpenFiles = maxOpenFiles;
    this.nativeTransport = nativeTransport;
  }

  public String host() {
    return host;
  }

  public int port() {
    return port;
  }

  public int maxConnections() {
    return maxConnections;
  }

  public Duration retryAfter() {
    return retryAfter;
  }

  public long maxInFlightBytes() {
    return maxInFlightBytes;
  }

  public Duration idleTimeout() {
    return idleTimeout;
  }

  public int ioThreads() {
    return ioThreads;
  }

  public int diskThreads() {
    return diskThreads;
  }

  public Duration signatureMaxAge() {
    return signatureMaxAge;
  }

  public long indexCacheBytes() {
    return indexCacheBytes;
  }

  public int maxOpenFiles() {
    return maxOpenFiles;
  }

  public boolean nativeTransport() {
    return nativeTransport;
  }

  /** Loopback, any port, small limits: for tests. */
  public static ServerSettings loopback() {
    return new ServerSettings("127.0.0.1", 0, 64, Duration.ofSeconds(1), 64L << 20, Duration.ofSeconds(30), 2, 2,
        Duration.ofMinutes(5), 1L << 20, 64, true);
  }

  public ServerSettings withMaxConnections(int n) {
    return new ServerSettings(host, port, n, retryAfter, maxInFlightBytes, idleTimeout, ioThreads, diskThreads,
        signatureMaxAge, indexCacheBytes, maxOpenFiles, nativeTransport);
  }

  public ServerSettings withMaxInFlightBytes(long n) {
    return new ServerSettings(host, port, maxConnections, retryAfter, n, idleTimeout, ioThreads, diskThreads,
        signatureMaxAge, indexCacheBytes, maxOpenFiles, nativeTransport);
  }

  public ServerSettings withIdleTimeout(Duration d) {
    return new ServerSettings(host, port, maxConnections, retryAfter, maxInFlightBytes, d, ioThreads, diskThreads,
        signatureMaxAge, indexCacheBytes, maxOpenFiles, nativeTransport);
  }

  public ServerSettings withPort(int p) {
    return new ServerSettings(host, p, maxConnections, retryAfter, maxInFlightBytes, idleTimeout, ioThreads,
        diskThreads, signatureMaxAge, indexCacheBytes, maxOpenFiles, nativeTransport);
  }

  public ServerSettings withIndexCacheBytes(long n) {
    return new ServerSettings(host, port, maxConnections, retryAfter, maxInFlightBytes, idleTimeout, ioThreads,
        diskThreads, signatureMaxAge, n, maxOpenFiles, nativeTransport);
  }

  public ServerSettings withNativeTransport(boolean b) {
    return new ServerSettings(host, port, maxConnections, retryAfter, maxInFlightBytes, idleTimeout, ioThreads,
        diskThreads, signatureMaxAge, indexCacheBytes, maxOpenFiles, b);
  }

  public ServerSettings withMaxOpenFiles(int n) {
    return new ServerSettings(host, port, maxConnections, retryAfter, maxInFlightBytes, idleTimeout, ioThreads,
        diskThreads, signatureMaxAge, indexCacheBytes, n, nativeTransport);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ServerSettings)) {
      return false;
    }
    ServerSettings other = (ServerSettings) o;
    return Objects.equals(host, other.host) && port == other.port && maxConnections == other.maxConnections
        && Objects.equals(retryAfter, other.retryAfter) && maxInFlightBytes == other.maxInFlightBytes
        && Objects.equals(idleTimeout, other.idleTimeout) && ioThreads == other.ioThreads
        && diskThreads == other.diskThreads && Objects.equals(signatureMaxAge, other.signatureMaxAge)
        && indexCacheBytes == other.indexCacheBytes && maxOpenFiles == other.maxOpenFiles
        && nativeTransport == other.nativeTransport;
  }

  @Override
  public int hashCode() {
    int h = Objects.hashCode(host);
    h = 31 * h + Integer.hashCode(port);
    h = 31 * h + Integer.hashCode(maxConnections);
    h = 31 * h + Objects.hashCode(retryAfter);
    h = 31 * h + Long.hashCode(maxInFlightBytes);
    h = 31 * h + Objects.hashCode(idleTimeout);
    h = 31 * h + Integer.hashCode(ioThreads);
    h = 31 * h + Integer.hashCode(diskThreads);
    h = 31 * h + Objects.hashCode(signatureMaxAge);
    h = 31 * h + Long.hashCode(indexCacheBytes);
    h = 31 * h + Integer.hashCode(maxOpenFiles);
    return 31 * h + Boolean.hashCode(nativeTransport);
  }

  @Override
  public String toString() {
    return "ServerSettings[host=" + host + ", port=" + port + ", maxConnections=" + maxConnections
        + ", retryAfter=" + retryAfter + ", maxInFlightBytes=" + maxInFlightBytes + ", idleTimeout=" + idleTimeout
        + ", ioThreads=" + ioThreads + ", diskThreads=" + diskThreads + ", signatureMaxAge=" + signatureMaxAge
        + ", indexCacheBytes=" + indexCacheBytes + ", maxOpenFiles=" + maxOpenFiles
        + ", nativeTransport=" + nativeTransport + "]";
  }
}
