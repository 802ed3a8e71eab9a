package org.elasticam.shuffle.client;

import java.util.Objects;

/** One NodeManager's shuffle service: its host (as the NodeManager names it), port, and whether it speaks TLS. */
public record ServiceAddress(String host, int port, boolean tls) {

  public ServiceAddress {
    Objects.requireNonNull(host, "host");
    if (host.isBlank() || port < 1 || port > 65535) {
      throw new IllegalArgumentException("not a service address: " + host + ":" + port);
    }
  }

  public static ServiceAddress plain(String host, int port) {
    return new ServiceAddress(host, port, false);
  }

  @Override
  public String toString() {
    return (tls ? "https://" : "http://") + host + ":" + port;
  }
}
