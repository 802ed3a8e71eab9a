package org.elasticam.embedded;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/** Finding and waiting for free NodeManager ports. */
final class Ports {

  /**
   * Below Linux's ephemeral range (32768+), so outgoing connections never take our ports; a random
   * start makes two clusters starting at once on one machine unlikely to probe the same range.
   */
  private static final int LOWEST = 20_000;
  private static final int HIGHEST = 32_000;
  private static final int ATTEMPTS = 50;

  private Ports() {}

  /** A base port whose whole range is free on every NodeManager's address. */
  static int freeBase(int nodeManagers) throws IOException {
    int span = NodeAddress.PORTS_PER_NODE * nodeManagers;
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      int base = ThreadLocalRandom.current().nextInt(LOWEST, HIGHEST - span);
      if (allFree(nodeManagers, base)) {
        return base;
      }
    }
    throw new IOException("no free range of " + span + " ports in [" + LOWEST + ", " + HIGHEST
        + ") after " + ATTEMPTS + " attempts; set Settings.basePort");
  }

  private static boolean allFree(int nodeManagers, int base) {
    for (int i = 0; i < nodeManagers; i++) {
      if (!allFree(NodeAddress.of(i, base))) {
        return false;
      }
    }
    return true;
  }

  static boolean allFree(NodeAddress a) {
    for (int port : a.ports()) {
      if (!isFree(a.bindHost(), port)) {
        return false;
      }
    }
    return true;
  }

  /** Binds as Hadoop's RPC and HTTP servers do (SO_REUSEADDR), so lingering TIME_WAIT sockets count as free. */
  private static boolean isFree(String host, int port) {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(InetAddress.getByName(host), port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
