package org.elasticam.embedded;

/**
 * Where NodeManager {@code index} listens: its own loopback address, so the ResourceManager sees a
 * distinct host per NodeManager, and fixed ports, because NodeManager recovery refuses an ephemeral
 * RPC port and a restarted NodeManager must come back with the same NodeId.
 */
record NodeAddress(int index, String host, int rpcPort, int localizerPort, int webPort, int shufflePort,
    String bindHost) {

  /** Ports each NodeManager takes from the base port (rpc, localizer, web, shuffle service); room to grow below 10. */
  static final int PORTS_PER_NODE = 10;

  static NodeAddress of(int index, int basePort) {
    int first = basePort + PORTS_PER_NODE * index;
    String host = "127.0.0." + (index + 1);
    return new NodeAddress(index, host, first, first + 1, first + 2, first + 3, host);
  }

  /**
   * The NodeManager and its shuffle service listen on another loopback address, 127.0.0.(index +
   * 101) ({@code yarn.nodemanager.bind-host}), so that proxies can take their places on {@link
   * #host()}, the address in the NodeId where everyone looks for them.
   */
  NodeAddress behindProxies() {
    if (index + 101 > 254) {
      throw new IllegalArgumentException("a NodeManager behind proxies needs an index <= 153, not " + index);
    }
    return new NodeAddress(index, host, rpcPort, localizerPort, webPort, shufflePort, "127.0.0." + (index + 101));
  }

  boolean isBehindProxies() {
    return !bindHost.equals(host);
  }

  String rpc() {
    return host + ":" + rpcPort;
  }

  String localizer() {
    return host + ":" + localizerPort;
  }

  String web() {
    return host + ":" + webPort;
  }

  /** Every port it listens on, on {@link #bindHost()}. */
  int[] ports() {
    return new int[] {rpcPort, localizerPort, webPort, shufflePort};
  }
}
