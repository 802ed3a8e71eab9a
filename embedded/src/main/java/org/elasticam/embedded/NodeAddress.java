package org.elasticam.embedded;

/**
 * Where NodeManager {@code index} listens: its own loopback address, so the ResourceManager sees a
 * distinct host per NodeManager, and fixed ports, because NodeManager recovery refuses an ephemeral
 * RPC port and a restarted NodeManager must come back with the same NodeId.
 */
record NodeAddress(int index, String host, int rpcPort, int localizerPort, int webPort, int shufflePort) {

  /** Ports each NodeManager takes from the base port (rpc, localizer, web, shuffle service); room to grow below 10. */
  static final int PORTS_PER_NODE = 10;

  static NodeAddress of(int index, int basePort) {
    int first = basePort + PORTS_PER_NODE * index;
    return new NodeAddress(index, "127.0.0." + (index + 1), first, first + 1, first + 2, first + 3);
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

  int[] ports() {
    return new int[] {rpcPort, localizerPort, webPort, shufflePort};
  }
}
