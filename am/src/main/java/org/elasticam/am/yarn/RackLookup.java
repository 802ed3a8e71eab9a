package org.elasticam.am.yarn;

import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.util.RackResolver;

/**
 * A host's rack. Resolution may run the cluster's topology script, so answers are cached: a host
 * is resolved once per AM. Loop-thread only.
 */
public interface RackLookup {

  /** The host's network location, or null when unknown. */
  String rackOf(String host);

  /** Every host on one rack: for clusters without topology, and tests. */
  static RackLookup none() {
    return host -> null;
  }

  /** Hadoop's configured topology (net.topology.*), cached. */
  static RackLookup hadoop(Configuration conf) {
    Map<String, String> cache = new HashMap<>();
    return host -> cache.computeIfAbsent(host, h -> RackResolver.resolve(conf, h).getNetworkLocation());
  }
}
