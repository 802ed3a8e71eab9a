package org.elasticam.engine.lineage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.elasticam.api.Stage;
import org.elasticam.engine.lineage.StageLineage.Completion;
import org.elasticam.engine.lineage.StageLineage.FetchVerdict;
import org.elasticam.engine.lineage.StageLineage.Rerun;
import org.junit.jupiter.api.Test;

class StageLineageTest {

  /** Map stage 0 (3 maps) feeds reducers 1 and 2; the plan has both as readers of shuffle 0. */
  private final Stage map = Stage.builder(0, "map", "T").tasks(3).writesShuffle(4).build();
  private final Stage reduce1 = Stage.builder(1, "reduce", "T").parents(0).tasks(2).build();
  private final Stage reduce2 = Stage.builder(2, "report", "T").parents(0).tasks(1).build();
  private final StageLineage lineage = new StageLineage(Map.of(0, 2)::get);

  private static MapOutputs.Output on(String host) {
    return new MapOutputs.Output("e-" + host, host, 7337, List.of("/d"), true);
  }

  private void mapsDone(String... hosts) {
    for (int m = 0; m < hosts.length; m++) {
      lineage.outputs().put(0, m, on(hosts[m]));
    }
  }

  @Test
  void aReaderSubmittedAfterItsInputWasLostWaitsForThoseMapsToRunAgain() {
    lineage.submitted(map);
    mapsDone("h1", "h2", "h1");
    lineage.completed(0);
    lineage.outputs().hostLost("h1");
    lineage.submitted(reduce1);
    List<Rerun> reruns = lineage.lostInputOf(reduce1);
    assertEquals(1, reruns.size());
    assertEquals(List.of(0, 2), reruns.get(0).maps());
    assertEquals(1, reruns.get(0).waitingStage());
    assertEquals("its node h1 was lost, and its shuffle service with it", reruns.get(0).why());
    assertTrue(lineage.isRerunning(0));

    lineage.outputs().put(0, 0, on("h3"));
    lineage.outputs().put(0, 2, on("h3"));
    Completion c = lineage.completed(0);
    assertTrue(c.recomputed(), "the map stage's second completion is a recomputation");
    assertEquals(List.of(1), c.resumed());
    assertFalse(lineage.isRerunning(0));
  }

  @Test
  void aFetchFailureAvoidsTheHostAndRerunsWhatIsMissingWhileTheReaderWaits() {
    lineage.submitted(map);
    mapsDone("h1", "h2", "h2");
    lineage.completed(0);
    lineage.submitted(reduce1);
    assertEquals(List.of(), lineage.lostInputOf(reduce1));

    FetchVerdict v = lineage.fetchFailed(1, 0, 0, List.of(1, 2), "connection refused");
    FetchVerdict.Recompute r = assertInstanceOf(FetchVerdict.Recompute.class, v);
    assertEquals(1, r.failuresInStage());
    assertEquals(List.of("h2"), r.hostsToAvoid());
    assertEquals(List.of(1, 2), r.rerun().orElseThrow().maps());
    assertEquals(1, r.rerun().orElseThrow().waitingStage());
    assertEquals("a reducer could not fetch it: connection refused", r.rerun().orElseThrow().why());

    // A second reducer task reporting the same loss finds the maps already missing: still one re-run of all.
    FetchVerdict again = lineage.fetchFailed(1, 1, 0, List.of(1), "connection refused");
    assertEquals(List.of(), ((FetchVerdict.Recompute) again).hostsToAvoid(), "no known output to blame");
    assertEquals(List.of(1, 2), ((FetchVerdict.Recompute) again).rerun().orElseThrow().maps());
  }

  @Test
  void aFetchFailureForAShuffleTheStageDoesNotReadOrOneTooManyFailsTheJob() {
    lineage.submitted(map);
    mapsDone("h1", "h1", "h1");
    lineage.completed(0);
    Stage other = Stage.builder(3, "other", "T").tasks(1).build();
    lineage.submitted(other);
    FetchVerdict.Fail f = assertInstanceOf(FetchVerdict.Fail.class, lineage.fetchFailed(3, 0, 0, List.of(0), "x"));
    assertEquals("Task 0 of stage 3 reported a fetch failure for shuffle 0, which it does not read", f.diagnostics());

    lineage.submitted(reduce1);
    for (int i = 1; i <= StageLineage.MAX_FETCH_FAILURES_PER_STAGE; i++) {
      assertInstanceOf(FetchVerdict.Recompute.class, lineage.fetchFailed(1, 0, 0, List.of(0), "gone"));
    }
    FetchVerdict.Fail last = assertInstanceOf(FetchVerdict.Fail.class, lineage.fetchFailed(1, 0, 0, List.of(0), "gone"));
    assertEquals("Stage 1 failed to fetch its shuffle input 17 times; last: gone", last.diagnostics());
  }

  @Test
  void aShuffleIsConsumedWhenItsSubmittedReadersCompleteAndRemovableWhenThePlansDo() {
    lineage.submitted(map);
    mapsDone("h1", "h1", "h1");
    assertEquals(new Completion(false, List.of(), List.of(), List.of()), lineage.completed(0));
    lineage.submitted(reduce1);
    Completion first = lineage.completed(1);
    assertEquals(List.of(0), first.consumed(), "no submitted stage reads shuffle 0 any more");
    assertEquals(List.of(), first.removable(), "but the plan still has stage 2 to read it");
    lineage.submitted(reduce2);
    Completion second = lineage.completed(2);
    assertEquals(List.of(0), second.consumed());
    assertEquals(List.of(0), second.removable(), "every reader in the plan completed");
  }

  @Test
  void aDecommissioningHostsOutputIsCopiedUnlessNothingWillReadIt() {
    lineage.submitted(map);
    mapsDone("h1", "h2", "h1");
    lineage.completed(0);
    List<Rerun> reruns = lineage.copyOff("h1", "draining", stage -> false);
    assertEquals(1, reruns.size());
    assertEquals(List.of(0, 2), reruns.get(0).maps());
    assertEquals(null, reruns.get(0).waitingStage(), "no stage waits: the host still serves the old copy");
    assertTrue(lineage.isRerunning(0), "a completed stage re-running its maps completes again as a recomputation");

    lineage.completed(0);
    lineage.submitted(reduce1);
    lineage.completed(1);
    assertEquals(List.of(), lineage.copyOff("h1", "draining", stage -> false), "shuffle 0 has no reader left");
  }
}
