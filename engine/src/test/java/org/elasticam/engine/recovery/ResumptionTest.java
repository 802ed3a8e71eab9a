package org.elasticam.engine.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.elasticam.api.Stage;
import org.elasticam.engine.job.JobPlan;
import org.elasticam.engine.lineage.MapOutputs;
import org.elasticam.engine.lineage.StageLineage;
import org.elasticam.engine.recovery.Resumption.RecordedOutput;
import org.elasticam.engine.recovery.Resumption.RecordedStage;
import org.junit.jupiter.api.Test;

class ResumptionTest {

  /** map (0, 3 maps) -> reduce (1, 2 tasks) -> report (2, 1 task); each released when its parent completes. */
  private static final class Chain implements JobPlan {
    final Stage map = Stage.builder(0, "map", "T").tasks(3).writesShuffle(2).build();
    final Stage reduce = Stage.builder(1, "reduce", "T").parents(0).tasks(2).writesShuffle(1).build();
    final Stage report = Stage.builder(2, "report", "T").parents(1).tasks(1).build();
    final List<Long> releasedAt = new ArrayList<>();

    @Override
    public List<Submission> start(long nowMs) {
      return List.of(new Submission(map, nowMs));
    }

    @Override
    public List<Submission> stageCompleted(int stageId, long nowMs) {
      releasedAt.add(nowMs);
      return stageId == 0 ? List.of(new Submission(reduce, nowMs)) : stageId == 1
          ? List.of(new Submission(report, nowMs)) : List.of();
    }

    @Override
    public int readersOf(int stageId) {
      return 1;
    }

    @Override
    public int totalTasks() {
      return 6;
    }

    @Override
    public int totalStages() {
      return 3;
    }
  }

  private static RecordedOutput out(int map, String executor, boolean external) {
    return new RecordedOutput(map, new MapOutputs.Output(executor, "h" + executor, 7337, List.of("/d"), external));
  }

  private final Chain plan = new Chain();
  private final StageLineage lineage = new StageLineage(plan::readersOf);

  @Test
  void completedStagesAreKnownAgainAndTheFirstOneNotCompletedIsSubmitted() {
    RecordedStage map = new RecordedStage(0, 5_000, List.of(), List.of(out(0, "1", true), out(1, "2", true),
        out(2, "1", true)));
    Resumption.Resumed r = Resumption.resume(plan, 9_000, List.of(map), List.of(), Set.of(), lineage);
    assertEquals(List.of(plan.map), r.completed());
    assertEquals(List.of(new JobPlan.Submission(plan.reduce, 5_000)), r.toSubmit(),
        "released as when the map stage really completed");
    assertEquals(3, r.recoveredTasks());
    assertEquals(List.of(), lineage.outputs().missing(0), "served by the shuffle service: none lost");
  }

  @Test
  void outputOnlyAnExecutorThatDidNotSurviveServedIsLost() {
    RecordedStage map = new RecordedStage(0, 5_000, List.of(), List.of(out(0, "1", false), out(1, "2", false),
        out(2, "1", false)));
    Resumption.resume(plan, 9_000, List.of(map), List.of(), Set.of("2"), lineage);
    assertEquals(List.of(0, 2), lineage.outputs().missing(0), "executor 1 is gone, executor 2 comes back");
  }

  @Test
  void aRunningStageKeepsOnlyTheTasksWhoseOutputOutlivedTheRestart() {
    RecordedStage map = new RecordedStage(0, 5_000, List.of(), List.of(out(0, "1", true), out(1, "1", true),
        out(2, "1", true)));
    RecordedStage reduce = new RecordedStage(1, 0, List.of(0, 1), List.of(out(0, "3", false), out(1, "4", true)));
    Resumption.Resumed r = Resumption.resume(plan, 9_000, List.of(map), List.of(reduce), Set.of(), lineage);
    assertEquals(List.of(new JobPlan.Submission(plan.reduce, 5_000)), r.toSubmit());
    assertEquals(Map.of(1, Set.of(1)), r.partlyDone(), "task 0's output was on executor 3, which is gone");
  }

  @Test
  void aRunningStageWhoseTasksAllSucceededCountsAsCompleted() {
    RecordedStage map = new RecordedStage(0, 5_000, List.of(), List.of(out(0, "1", true), out(1, "1", true),
        out(2, "1", true)));
    RecordedStage reduce = new RecordedStage(1, 0, List.of(0, 1), List.of(out(0, "4", true), out(1, "4", true)));
    Resumption.Resumed r = Resumption.resume(plan, 9_000, List.of(map), List.of(reduce), Set.of(), lineage);
    assertEquals(List.of(plan.map, plan.reduce), r.completed());
    assertEquals(List.of(new JobPlan.Submission(plan.report, 9_000)), r.toSubmit(),
        "no completion time was recorded: released now");
  }
}
