package org.elasticam.am.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.elasticam.api.ShuffleSpec;
import org.elasticam.engine.job.TaskLaunch;
import org.elasticam.engine.lineage.MapOutputs;
import org.elasticam.engine.lineage.ShuffleInput;
import org.elasticam.engine.scheduling.Locality;
import org.elasticam.engine.scheduling.TaskAttempt;
import org.elasticam.rpc.proto.MapOutputLocation;
import org.elasticam.rpc.proto.ShuffleRead;
import org.elasticam.rpc.proto.ShuffleWrite;
import org.junit.jupiter.api.Test;

class ShuffleReadTest {

  private final MapOutputs outputs = new MapOutputs();

  private static MapOutputs.Output on(String exec, boolean external) {
    return new MapOutputs.Output(exec, "h" + exec, 7447, List.of("/d/" + exec), external);
  }

  @Test
  void aMapsLaunchCarriesItsStagesPartitionerKeyOrderCombinerAndParameters() {
    ShuffleSpec spec = new ShuffleSpec("p.Range", "o.Desc", "c.Sum", Map.of("k", "v"));
    TaskAttempt a = new TaskAttempt(9, 0, 1, 0, "1", "h1", Locality.ANY, 0, "T", Map.of(), false);
    ShuffleWrite w = ExecutorSession.launchTask(new TaskLaunch(a, -1, new TaskLaunch.ShuffleWrite(0, 4, false, spec),
        List.of(), null)).getShuffleWrite();
    assertEquals(List.of("p.Range", "o.Desc", "c.Sum", Map.of("k", "v")), List.of(w.getPartitionerClass(),
        w.getKeyOrderClass(), w.getCombinerClass(), w.getShuffleParamsMap()));
    assertEquals(ShuffleWrite.newBuilder().setShuffleId(0).setPartitions(4).build(), ExecutorSession.launchTask(
        new TaskLaunch(a, -1, new TaskLaunch.ShuffleWrite(0, 4, false, ShuffleSpec.DEFAULT), List.of(), null))
        .getShuffleWrite(), "the default is the message as it was");
  }

  @Test
  void aReadCarriesTheKeyOrderTheWritingStageSortedIn() {
    outputs.register(0, 1);
    outputs.put(0, 0, on("1", true));
    ShuffleSpec spec = new ShuffleSpec("p.Range", "o.Desc", "c.Sum", Map.of("k", "v"));
    ShuffleRead r = ExecutorSession.read(ShuffleInput.of(outputs, 0, spec));
    assertEquals("o.Desc", r.getKeyOrderClass());
    assertEquals(Map.of("k", "v"), r.getShuffleParamsMap());
    assertEquals("", ExecutorSession.read(ShuffleInput.of(outputs, 0, ShuffleSpec.DEFAULT)).getKeyOrderClass());
  }

  @Test
  void aReadGroupsMapsByTheExecutorThatWroteThem() {
    outputs.register(0, 4);
    outputs.put(0, 0, on("1", true));
    outputs.put(0, 1, on("2", true));
    outputs.put(0, 2, on("1", true));
    assertEquals(List.of(3), outputs.missing(0));
    outputs.put(0, 3, on("2", true));
    ShuffleRead r = ExecutorSession.read(ShuffleInput.of(outputs, 0, ShuffleSpec.DEFAULT));
    assertEquals(4, r.getMaps());
    assertEquals(2, r.getLocationsCount());
    MapOutputLocation first = r.getLocations(0);
    assertEquals("1", first.getExecutorId());
    assertEquals(List.of(0, 2), first.getMapIdsList());
    assertEquals(List.of("/d/1"), first.getLocalDirsList());
    assertEquals(List.of(1, 3), r.getLocations(1).getMapIdsList());
  }

  @Test
  void lostMapsAreLeftOutOfTheRead() {
    outputs.register(0, 3);
    for (int m = 0; m < 3; m++) {
      outputs.put(0, m, on("1", true));
    }
    outputs.lose(0, List.of(1));
    assertEquals(List.of(0, 2), ExecutorSession.read(ShuffleInput.of(outputs, 0, ShuffleSpec.DEFAULT)).getLocations(0)
        .getMapIdsList());
  }
}
