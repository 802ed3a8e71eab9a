package org.elasticam.am.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.elasticam.api.Stage;
import org.elasticam.workload.stream.BatchLoad;
import org.elasticam.workload.stream.RateProfile;
import org.junit.jupiter.api.Test;
import org.elasticam.engine.job.DagPlan;
import org.elasticam.engine.job.StreamingPlan;

class DagPlanTest {

  @Test
  void aStagesReadersAreCountedOverTheWholeJobNotOnlyThoseSubmitted() {
    // 0 and 1 write; 2 reads 0; 3 reads 0 and 2 (it is submitted only after 2, long after 0 is done).
    DagPlan plan = new DagPlan(List.of(
        Stage.builder(0, "a", "T").tasks(2).writesShuffle(2).build(),
        Stage.builder(1, "b", "T").tasks(2).writesShuffle(2).build(),
        Stage.builder(2, "c", "T").tasks(2).writesShuffle(2).parents(0).build(),
        Stage.builder(3, "d", "T").tasks(2).parents(0, 2).build()));
    assertEquals(2, plan.readersOf(0));
    assertEquals(0, plan.readersOf(1));
    assertEquals(1, plan.readersOf(2));
    assertEquals(0, plan.readersOf(3));
  }

  @Test
  void aStreamsPlanCannotTellInAdvance() {
    BatchLoad load = new BatchLoad(RateProfile.parse("const:1", java.nio.file.Path.of(".")), 1000, 500);
    assertEquals(-1, new StreamingPlan(in -> List.of(Stage.builder(0, "s", "T").tasks(1).build()), load, 2, null,
        "const:1").readersOf(0));
  }
}
