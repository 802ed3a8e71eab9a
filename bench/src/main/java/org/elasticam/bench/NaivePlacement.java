package org.elasticam.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.elasticam.allocator.model.LocalityHints;

/**
 * The baseline: the same placement computed the straightforward way Spark's strategy does it —
 * for every locality-aware container, filter every host by its remaining quota, copy the hosts
 * into a fresh array and resolve their racks — O(containers x hosts) time and output.
 */
public final class NaivePlacement {

  private NaivePlacement() {}

  /** One entry per container: a hosts array and a racks array, or null for "anywhere". */
  public static List<String[][]> place(int containers, LocalityHints hints, Map<String, Integer> existing,
      int cores, Map<String, String> rackOfHost) {
    long total = 0;
    for (int c : hints.hostToLocalTaskCount().values()) {
      total += c;
    }
    long needed = (hints.localityAwareTasks() + cores - 1) / cores;
    Map<String, Integer> required = new LinkedHashMap<>();
    int sum = 0;
    int largest = 0;
    for (Map.Entry<String, Integer> e : hints.hostToLocalTaskCount().entrySet()) {
      double expected = e.getValue().doubleValue() * needed / total;
      int r = (int) Math.max(0, Math.ceil(expected - existing.getOrDefault(e.getKey(), 0)));
      required.put(e.getKey(), r);
      sum += r;
      largest = Math.max(largest, r);
    }
    int free = Math.max(0, containers - sum);
    int aware = containers - free;
    List<String[][]> out = new ArrayList<>(containers);
    for (int i = 0; i < free; i++) {
      out.add(null);
    }
    Map<String, Integer> quota = new LinkedHashMap<>();
    for (Map.Entry<String, Integer> e : required.entrySet()) {
      quota.put(e.getKey(), (int) Math.ceil((double) e.getValue() * aware / Math.max(1, largest)));
    }
    for (int i = 0; i < aware; i++) {
      List<String> hosts = new ArrayList<>();
      for (Map.Entry<String, Integer> e : quota.entrySet()) {
        if (e.getValue() > 0) {
          hosts.add(e.getKey());
        }
      }
      Set<String> racks = new LinkedHashSet<>();
      for (String h : hosts) {
        String rack = rackOfHost.get(h);
        if (rack != null) {
          racks.add(rack);
        }
      }
      out.add(new String[][] {hosts.toArray(new String[0]), racks.toArray(new String[0])});
      quota.replaceAll((h, q) -> q - 1);
    }
    return out;
  }
}
