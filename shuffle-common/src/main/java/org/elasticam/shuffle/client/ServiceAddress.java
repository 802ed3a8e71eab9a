package org.elasticam.shuffle.client;

import java.util.Objects;

/** One NodeManager's shuffle service: its host (as the NodeManager names it), port, and whether it speaks TLS. */
public final class ServiceAddress {

  private final String host;
  private final int port;
  private final boolean tls;

  public ServiceAddress(String host, int port, boolean tls) {
    Objects.requireNonNull(host, "host");
    if (host.codePoints().allMatch(Character::isWhitespace) || port < 1 || port > 65535) {
      throw new IllegalArgumentException("not a service address: " + host + ":" + port);
    }
    this.host = host;
    this.port = port;
    this.tls = tls;
  }

  public String host() {
    return host;
  }

  public int port() {
    return port;
  }

  public boolean tls() {
    return tls;
  }

  public static ServiceAddress plain(String host, int port) {
    return new ServiceAddress(host, port, false);
  }

  @Override
  public String toString() {
    return (tls ? "https://" : "http://") + host + ":" + port;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ServiceAddress)) {
      return false;
    }
    ServiceAddress other = (ServiceAddress) o;
    return Objects.equals(host, other.host) && port == other.port && tls == other.tls;
  }

  @Override
  public int hashCode() {
    int h = Objects.hashCode(host);
    h = 31 * h + Integer.hashCode(port);
    return 31 * h + Boolean.hashCode(tls);
  }
}
