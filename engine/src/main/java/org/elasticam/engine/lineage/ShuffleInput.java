package org.elasticam.engine.lineage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.elasticam.api.ShuffleSpec;

/**
 * What a reduce task needs to fetch its partition of a shuffle: how many maps it has, and where
 * their output is, grouped by the executor (and port) that serves it, and how the writing stage
 * sorted it (the reducer merges in its key order).
 */
public record ShuffleInput(int shuffleId, int maps, List<Location> locations, ShuffleSpec writer) {

  /** The maps one server holds. */
  public record Location(String executorId, String host, int port, List<String> localDirs, List<Integer> mapIds) {}

  /** The shuffle's known output now, written as {@code writer} says; missing maps are left out. */
  public static ShuffleInput of(MapOutputs outputs, int shuffleId, ShuffleSpec writer) {
    List<MapOutputs.Output> all = outputs.outputs(shuffleId);
    Map<String, Location> byServer = new LinkedHashMap<>();
    for (int m = 0; m < all.size(); m++) {
      MapOutputs.Output o = all.get(m);
      if (o == null) {
        continue;
      }
      byServer.computeIfAbsent(o.executorId() + "@" + o.host() + ":" + o.port(),
          k -> new Location(o.executorId(), o.host(), o.port(), o.localDirs(), new ArrayList<>())).mapIds().add(m);
    }
    return new ShuffleInput(shuffleId, all.size(), List.copyOf(byServer.values()), writer);
  }
}
