package org.elasticam.am.driver;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.elasticam.engine.lineage.MapOutputs;
import org.elasticam.rpc.proto.MapOutputLocation;
import org.elasticam.rpc.proto.ShuffleRead;

/** The control plane's form of a shuffle's map output locations: what a reduce task is sent to fetch its partition. */
final class ShuffleReads {

  private ShuffleReads() {}

  /** The shuffle's locations, grouped by the executor (and port) that serves them. */
  static ShuffleRead of(MapOutputs outputs, int shuffleId) {
    List<MapOutputs.Output> all = outputs.outputs(shuffleId);
    Map<String, MapOutputLocation.Builder> byExecutor = new LinkedHashMap<>();
    for (int m = 0; m < all.size(); m++) {
      MapOutputs.Output o = all.get(m);
      if (o == null) {
        continue;
      }
      byExecutor.computeIfAbsent(o.executorId() + "@" + o.host() + ":" + o.port(), k -> MapOutputLocation.newBuilder()
          .setExecutorId(o.executorId()).setHost(o.host()).setPort(o.port()).addAllLocalDirs(o.localDirs()))
          .addMapIds(m);
    }
    ShuffleRead.Builder r = ShuffleRead.newBuilder().setShuffleId(shuffleId).setMaps(all.size());
    byExecutor.values().forEach(r::addLocations);
    return r.build();
  }
}
