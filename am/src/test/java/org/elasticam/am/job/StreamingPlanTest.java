package org.elasticam.am.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.elasticam.api.BatchInput;
import org.elasticam.api.Stage;
import org.elasticam.api.StreamingJob;
import org.elasticam.workload.stream.BatchLoad;
import org.elasticam.workload.stream.RateProfile;
import org.junit.jupiter.api.Test;
import org.elasticam.engine.job.StreamingPlan;

class StreamingPlanTest {

  /** A user job of two stages a batch: a map over the batch's partitions and one reducer. */
  private static final StreamingJob MAP_REDUCE = in -> List.of(
      Stage.builder(0, "map", "t.Map").tasks(in.partitions()).writesShuffle(1).build(),
      Stage.builder(1, "reduce", "t.Reduce").parents(0).tasks(1).build());

  private static StreamingPlan plan(StreamingJob job, Integer partitions) {
    BatchLoad load = new BatchLoad(RateProfile.parse("step:10@0,30@2s", java.nio.file.Path.of(".")), 1000, 500);
    return new StreamingPlan(job, load, 5, partitions, "step:10@0,30@2s");
  }

  @Test
  void aBatchsStagesGetApplicationWideIdsAndItsInput() throws Exception {
    List<BatchInput> seen = new java.util.ArrayList<>();
    StreamingPlan p = plan(in -> {
      seen.add(in);
      return MAP_REDUCE.batch(in);
    }, null);
    List<Stage> b3 = p.batch(3, 4);
    assertEquals(List.of(3000, 3001), b3.stream().map(Stage::id).toList());
    assertEquals(List.of(3000), b3.get(1).parents());
    assertEquals("batch 3: reduce", b3.get(1).name());
    assertEquals(8, b3.get(0).tasks().size(), "2 tasks per live executor");
    // batch 3 processes [3 s, 4 s), when the rate is 30/s
    assertEquals(new BatchInput(3, 3000, 4000, 30, 8), seen.get(0));
    assertEquals(1, plan(MAP_REDUCE, null).batch(0, 0).get(1).tasks().size());
    assertEquals(5, plan(MAP_REDUCE, 5).batch(0, 10).get(0).tasks().size(), "--partitions wins");
  }

  @Test
  void aJobThatBreaksTheRulesFailsWithOneLine() {
    StreamingPlan big = plan(in -> List.of(Stage.builder(1000, "x", "t.X").tasks(1).build()), null);
    assertEquals("batch 2: stage id 1000 is not below 1000",
        assertThrows(IllegalArgumentException.class, () -> big.batch(2, 1)).getMessage());
    StreamingPlan none = plan(in -> List.of(), null);
    assertEquals("the streaming job made no stages for batch 0",
        assertThrows(IllegalArgumentException.class, () -> none.batch(0, 1)).getMessage());
  }
}
