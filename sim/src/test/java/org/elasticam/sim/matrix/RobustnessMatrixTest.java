package org.elasticam.sim.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.elasticam.workload.Trace;
import org.elasticam.workload.TraceStage;
import org.elasticam.workload.TraceTask;
import org.junit.jupiter.api.Test;

class RobustnessMatrixTest {

  private static final List<String> TRACES = List.of("a", "b");

  @Test
  void theSameSliceGivesTheSameCases() {
    assertEquals(RobustnessMatrix.cases("tuning", TRACES), RobustnessMatrix.cases("tuning", TRACES));
    assertEquals(RobustnessMatrix.cases("heldout", TRACES), RobustnessMatrix.cases("heldout", TRACES));
  }

  @Test
  void everyWorkloadGetsItsDrawsAndTheTuningSliceTheCorners() {
    int workloads = TRACES.size() + SyntheticWorkloads.FAMILIES.size() * 3;
    List<MatrixCase> tuning = RobustnessMatrix.cases("tuning", TRACES);
    List<MatrixCase> heldout = RobustnessMatrix.cases("heldout", TRACES);

    assertEquals(workloads * (RobustnessMatrix.DRAWN_PER_WORKLOAD + RobustnessMatrix.corners().size()), tuning.size());
    assertEquals(workloads * RobustnessMatrix.DRAWN_PER_WORKLOAD, heldout.size());
    Set<String> ids = new HashSet<>();
    tuning.forEach(c -> assertTrue(ids.add(c.id()), c.id()));
    heldout.forEach(c -> assertTrue(ids.add(c.id()), c.id()));
  }

  @Test
  void theHeldOutSliceSharesNoSyntheticWorkloadAndNoDrawWithTuning() {
    Set<String> tuning = new HashSet<>(RobustnessMatrix.workloads("tuning", List.of()));
    RobustnessMatrix.workloads("heldout", List.of()).forEach(w -> assertTrue(!tuning.contains(w), w));
    Set<Conditions> drawn = new HashSet<>();
    RobustnessMatrix.cases("tuning", TRACES).stream().filter(c -> c.label().startsWith("d"))
        .forEach(c -> drawn.add(c.conditions()));
    RobustnessMatrix.cases("heldout", TRACES).forEach(c -> assertTrue(!drawn.contains(c.conditions()), c.id()));
  }

  @Test
  void drawnConditionsStayInTheirRanges() {
    for (String slice : RobustnessMatrix.SLICES) {
      for (MatrixCase c : RobustnessMatrix.cases(slice, TRACES)) {
        Conditions k = c.conditions();
        assertTrue(k.timeScale() >= 0.1 && k.timeScale() <= 10, c.id());
        assertTrue(k.startMs() >= 500 && k.startMs() <= 10_000, c.id());
        assertTrue(k.grantMs() >= 100 && k.grantMs() <= 2_000, c.id());
        assertTrue(k.heartbeatMs() >= 100 && k.heartbeatMs() <= 3_000, c.id());
        assertTrue(k.capacity() >= 20, c.id());
        assertTrue(k.executorCores() >= 1 && k.executorCores() <= 8, c.id());
      }
    }
  }

  @Test
  void aSyntheticWorkloadIsAFunctionOfItsFamilyAndSeed() {
    for (String family : SyntheticWorkloads.FAMILIES) {
      Trace a = SyntheticWorkloads.generate(family, 7);
      assertEquals(a.stageAttempts(), SyntheticWorkloads.generate(family, 7).stageAttempts(), family);
      assertNotEquals(a.stageAttempts(), SyntheticWorkloads.generate(family, 8).stageAttempts(), family);
      for (TraceStage s : a.stageAttempts()) {
        assertTrue(!s.tasks().isEmpty(), family);
        s.tasks().forEach(t -> assertTrue(t.durationMs() >= 1 && t.succeeded(), family));
      }
    }
    assertThrows(IllegalArgumentException.class, () -> SyntheticWorkloads.generate("nope", 1));
  }

  @Test
  void theFamiliesHaveTheirShapes() {
    // wide-short: hundreds to thousands of tasks of well under a second, on the median stage
    TraceStage wide = SyntheticWorkloads.generate("wide-short", 1).stageAttempts().get(0);
    assertTrue(wide.tasks().size() >= 300, "wide");
    assertTrue(medianMs(wide) < 1_000, "short");
    // interactive: think times of tens of seconds between queries
    List<TraceStage> session = SyntheticWorkloads.generate("interactive", 1).stageAttempts();
    long longestGap = 0;
    for (int i = 1; i < session.size(); i++) {
      longestGap = Math.max(longestGap, session.get(i).submitMs() - session.get(i - 1).completeMs());
    }
    assertTrue(longestGap >= 10_000, "think time " + longestGap);
    // etl-chain: a straggler tail, some task several times the stage's median
    boolean tail = false;
    for (TraceStage s : SyntheticWorkloads.generate("etl-chain", 1).stageAttempts()) {
      long longest = s.tasks().stream().mapToLong(TraceTask::durationMs).max().orElse(0);
      tail |= s.tasks().size() >= 20 && longest > 4 * medianMs(s);
    }
    assertTrue(tail, "stragglers");
  }

  private static long medianMs(TraceStage s) {
    return s.tasks().stream().mapToLong(TraceTask::durationMs).sorted().skip(s.tasks().size() / 2).findFirst()
        .orElse(0);
  }

  @Test
  void theSummaryCountsWhatTheTargetsSay() {
    List<CaseResult> results = List.of(result("x", 100, 1000, 90, 700, 600), result("y", 100, 1000, 104, 800, 700),
        result("z", 100, 1000, 102, 1300, 1000));
    MatrixSummary s = MatrixSummary.of(results, "elastic", "spark");

    assertEquals(0.2, s.medianSaving(), 1e-9);
    assertEquals(1.04, s.worstMakespan(), 1e-9);
    assertEquals("tuning/y/d0", s.worstMakespanCase());
    assertEquals(2.0 / 3, s.within(), 1e-9);
    assertEquals(0, s.overWorst());
    assertEquals(1.3, s.worstExecutors(), 1e-9);
    assertEquals(700.0 / 600, s.medianVsBound(), 1e-9);
    List<String> missed = s.missedTargets();
    assertEquals(4, missed.size(), missed.toString());
    assertTrue(missed.get(0).contains("within"), missed.toString());
    assertTrue(missed.get(1).contains("saving"), missed.toString());
    assertTrue(missed.get(2).contains("tuning/z/d0"), missed.toString());
    assertTrue(missed.get(3).contains("start-aware bound"), missed.toString());
  }

  @Test
  void aResultLineReadsBackAsItWasWritten() {
    CaseResult r = result("etl-chain#2", 100, 1000, 90, 700, 600);
    assertEquals(r, MatrixJson.parse(MatrixJson.line(r)));
  }

  private static CaseResult result(String workload, long sparkMs, long sparkExec, long elasticMs, long elasticExec,
      long boundExec) {
    MatrixCase c = new MatrixCase("tuning", workload, "d0", Conditions.BASELINE);
    return new CaseResult(c, Map.of("spark", new CaseResult.Figures(sparkMs, sparkExec, 0, 1), "elastic",
        new CaseResult.Figures(elasticMs, elasticExec, 0, 1), "oracle-start-bound",
        new CaseResult.Figures(50, boundExec, 0, 1)));
  }
}
