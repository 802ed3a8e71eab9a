package org.elasticam.allocator.model;

import java.util.Collections;
import java.util.List;

/**
 * Preferred hosts of one container request and their racks; empty lists mean "anywhere".
 *
 * <p>The lists are wrapped, not copied: placement hands prefixes of one host array to many
 * requests, and copying would make it quadratic. Callers must not change a list after passing it.
 */
public record LocalityPreference(List<String> hosts, List<String> racks) {

  public static final LocalityPreference NONE = new LocalityPreference(List.of(), List.of());

  public LocalityPreference {
    hosts = Collections.unmodifiableList(hosts);
    racks = Collections.unmodifiableList(racks);
  }

  public static LocalityPreference onHost(String host, String rackOrNull) {
    return new LocalityPreference(List.of(host), rackOrNull == null ? List.of() : List.of(rackOrNull));
  }

  public boolean isNone() {
    return hosts.isEmpty() && racks.isEmpty();
  }

  @Override
  public String toString() {
    return isNone() ? "any host" : "hosts " + hosts + (racks.isEmpty() ? "" : " racks " + racks);
  }
}
