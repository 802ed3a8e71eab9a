package org.elasticam.workload;

import static org.elasticam.workload.TraceLines.simpleStage;
import static org.elasticam.workload.TraceLines.stage;
import static org.elasticam.workload.TraceLines.task;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The replay rule with worked numbers; each test's trace is small enough to check by hand. */
class ReplayTest {

  /** The example of Replay's Javadoc: 0 and 1 run side by side, 2 joins them, 3 follows. */
  private static final String[] DIAMOND = {
      simpleStage(0, 100, 400, List.of(), 200, 300),
      simpleStage(1, 150, 350, List.of(), 200),
      simpleStage(2, 450, 600, List.of(0, 1), 150),
      simpleStage(3, 700, 800, List.of(), 100)};

  @TempDir
  Path dir;

  private Replay plan(double timeScale, String... lines) throws Exception {
    return Replay.plan(TraceLines.read(dir, lines), timeScale, List.of());
  }

  private static Submission at(int stageId, long atMs) {
    return new Submission(stageId, atMs);
  }

  @Test
  void stagesWithoutPrecedingWorkKeepTheirOffsetFromTheStart() throws Exception {
    Replay replay = plan(1, DIAMOND);

    assertEquals(List.of(at(0, 1100), at(1, 1150)), replay.start(1000));
  }

  @Test
  void aStageWithParentsFollowsItsLastParentByItsOriginalGap() throws Exception {
    Replay replay = plan(1, DIAMOND);
    replay.start(1000);

    assertEquals(List.of(), replay.stageCompleted(1, 1400), "stage 0 still runs");
    // Gap: submitted at 450, parents completed at 400 and 350.
    assertEquals(List.of(at(2, 1550)), replay.stageCompleted(0, 1500));
  }

  @Test
  void theLastParentIsTheLatestCompletionWhateverTheReportingOrder() throws Exception {
    Replay replay = plan(1, DIAMOND);
    replay.start(1000);

    replay.stageCompleted(0, 1500);
    assertEquals(List.of(at(2, 1550)), replay.stageCompleted(1, 1450));
  }

  @Test
  void aStageWithoutParentsFollowsThePrecedingWorkByItsOriginalOffset() throws Exception {
    Replay replay = plan(1, DIAMOND);
    replay.start(1000);
    replay.stageCompleted(1, 1400);
    replay.stageCompleted(0, 1500);

    // Stage 3 (submitted 700) had 0, 1 and 2 before it, the last completing at 600.
    assertEquals(List.of(at(3, 1800)), replay.stageCompleted(2, 1700));
    assertFalse(replay.finished());
    assertEquals(List.of(), replay.stageCompleted(3, 1900));
    assertTrue(replay.finished());
  }

  @Test
  void theTimeScaleScalesGapsOffsetsAndDurationsAlike() throws Exception {
    Replay replay = plan(2, DIAMOND);

    assertEquals(List.of(at(0, 200), at(1, 300)), replay.start(0));
    replay.stageCompleted(1, 700);
    assertEquals(List.of(at(2, 1000)), replay.stageCompleted(0, 900), "gap 50 x 2");
    assertEquals(List.of(at(3, 1500)), replay.stageCompleted(2, 1300), "offset 100 x 2");
    assertEquals(List.of(400L, 600L), durations(replay.stage(0)));
  }

  @Test
  void durationsAreRoundedAndAtLeastOneMillisecond() throws Exception {
    Replay half = plan(0.5, simpleStage(0, 0, 10, List.of(), 0, 3, 1000, 5));
    Replay tiny = plan(0.001, simpleStage(0, 0, 10, List.of(), 3));

    assertEquals(List.of(1L, 2L, 500L, 3L), durations(half.stage(0)), "1.5 and 2.5 round up");
    assertEquals(List.of(1L), durations(tiny.stage(0)));
  }

  @Test
  void aChildSubmittedBeforeItsParentCompletedHasNoGap() throws Exception {
    Replay replay = plan(1,
        simpleStage(0, 0, 500, List.of(), 10),
        simpleStage(1, 450, 600, List.of(0), 10));
    replay.start(0);

    assertEquals(List.of(at(1, 70)), replay.stageCompleted(0, 70));
  }

  @Test
  void parentsAbsentFromTheTraceCountAsDone() throws Exception {
    Replay replay = plan(1,
        simpleStage(0, 0, 100, List.of(), 10),
        // Only absent parents: it waits for the preceding work (stage 0), offset 30.
        simpleStage(5, 130, 200, List.of(99), 10),
        // One present parent: it follows stage 0 by its gap, 50.
        simpleStage(6, 150, 220, List.of(0, 98), 10));

    assertEquals(List.of(at(0, 0)), replay.start(0));
    assertEquals(List.of(at(5, 100), at(6, 120)), replay.stageCompleted(0, 70));
  }

  @Test
  void precedingWorkIsWhatHadCompletedByTheSubmissionNotWhatWasRunning() throws Exception {
    Replay replay = plan(1,
        simpleStage(0, 0, 100, List.of(), 10),
        simpleStage(1, 50, 300, List.of(), 10),
        simpleStage(2, 200, 250, List.of(), 10));

    assertEquals(List.of(at(0, 0), at(1, 50)), replay.start(0));
    // Stage 2 waits for 0 only: 1 was still running when 2 was submitted.
    assertEquals(List.of(at(2, 110)), replay.stageCompleted(0, 10));
  }

  @Test
  void stagesThatTookNoTimeAtTheSameInstantWaitForEachOtherInIdOrder() throws Exception {
    Replay replay = plan(1,
        stage(0, 0, 100, 100, List.of()),
        stage(1, 0, 100, 100, List.of()),
        simpleStage(2, 100, 150, List.of(), 10));

    assertEquals(List.of(at(0, 100)), replay.start(0));
    assertEquals(List.of(), replay.stage(0).tasks());
    assertEquals(0, replay.stage(0).longestTaskMs());
    assertEquals(List.of(at(1, 100)), replay.stageCompleted(0, 100));
    assertEquals(List.of(at(2, 100)), replay.stageCompleted(1, 100));
  }

  @Test
  void aStageRunInSeveralAttemptsIsReplayedOnceWithEachIndexOnce() throws Exception {
    Replay replay = plan(1,
        stage(4, 0, 100, 300, List.of(),
            task(0, 0, 100, 50, "h", "ANY", "SUCCESS"),
            task(1, 0, 100, 80, "h", "ANY", "FAILED:FetchFailed"),
            task(2, 0, 100, 30, "h", "ANY", "FAILED:ExceptionFailure"),
            task(2, 1, 140, 70, "h", "ANY", "SUCCESS"),
            task(3, 0, 100, 20, "h", "ANY", "FAILED:ExecutorLostFailure")),
        simpleStage(7, 450, 600, List.of(), 10),
        stage(4, 1, 400, 500, List.of(),
            task(1, 0, 400, 90, "h", "ANY", "SUCCESS"),
            task(3, 0, 400, 10, "h", "ANY", "KILLED"),
            task(0, 0, 410, 55, "h", "ANY", "SUCCESS")),
        simpleStage(8, 550, 650, List.of(), 10));

    assertEquals(List.of(4, 7, 8), replay.stages().stream().map(ReplayStage::stageId).toList());
    // Index 0: its first success; 1 and 2: their success; 3 never succeeded: its last attempt.
    assertEquals(List.of(0, 1, 2, 3), replay.stage(4).tasks().stream().map(ReplayTask::index)
        .toList());
    assertEquals(List.of(50L, 90L, 70L, 10L), durations(replay.stage(4)));
    assertEquals(6, replay.totalTasks());
    // Merged, stage 4 ran from 100 to 500: it preceded stage 8 (550) but not stage 7 (450).
    assertEquals(List.of(at(4, 100), at(7, 450)), replay.start(0));
    replay.stageCompleted(7, 460);
    assertEquals(List.of(at(8, 1050)), replay.stageCompleted(4, 1000));
  }

  @Test
  void recordedHostsAreDealtRoundRobinInSortedOrder() throws Exception {
    Trace trace = TraceLines.read(dir, stage(0, 0, 0, 100, List.of(),
        // Host "a" appears only on a failed attempt: it still takes its place in the deal.
        task(0, 0, 0, 10, "a", "PROCESS_LOCAL", "FAILED:ExceptionFailure"),
        task(0, 1, 10, 10, "d", "PROCESS_LOCAL", "SUCCESS"),
        task(1, 0, 0, 10, "c", "NODE_LOCAL", "SUCCESS"),
        task(2, 0, 0, 10, "b", "NODE_LOCAL", "SUCCESS"),
        task(3, 0, 0, 10, "c", "RACK_LOCAL", "SUCCESS"),
        task(4, 0, 0, 10, "b", "ANY", "SUCCESS")));

    Replay replay = Replay.plan(trace, 1, List.of("n1", "n2"));

    // a -> n1, b -> n2, c -> n1, d -> n2; only process- and node-local tasks prefer a host.
    assertEquals(List.of(Optional.of("n2"), Optional.of("n1"), Optional.of("n2"), Optional.empty(),
        Optional.empty()), preferences(replay.stage(0)));
    assertEquals(List.of(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
        Optional.empty()), preferences(Replay.plan(trace, 1, List.of()).stage(0)));
  }

  @Test
  void aHugeTimeScalePushesSubmissionsOutWithoutWrapping() throws Exception {
    Replay replay = plan(1e300, simpleStage(0, 100, 200, List.of(), 10));

    assertEquals(List.of(at(0, Long.MAX_VALUE)), replay.start(1000));
    assertEquals(Long.MAX_VALUE, replay.stage(0).longestTaskMs());
  }

  private static List<Long> durations(ReplayStage stage) {
    return stage.tasks().stream().map(ReplayTask::durationMs).toList();
  }

  private static List<Optional<String>> preferences(ReplayStage stage) {
    return stage.tasks().stream().map(ReplayTask::preferredHost).toList();
  }
}
