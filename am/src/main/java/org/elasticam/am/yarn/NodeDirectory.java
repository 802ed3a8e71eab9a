package org.elasticam.am.yarn;

import java.util.List;

/**
 * The cluster's live nodes, for spread placement. The AM refreshes it off the event loop (node
 * reports are an RPC); an empty list only turns spreading off.
 */
@FunctionalInterface
public interface NodeDirectory {

  /** Host names of nodes in RUNNING state, as the ResourceManager names them. */
  List<String> liveHosts();

  static NodeDirectory unknown() {
    return List::of;
  }
}
