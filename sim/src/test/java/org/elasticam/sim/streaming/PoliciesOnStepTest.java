package org.elasticam.sim.streaming;

import org.elasticam.allocator.HeartbeatSchedule;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.elasticam.allocator.streaming.BatchStats;
import org.elasticam.allocator.streaming.StreamingDecision;
import org.elasticam.allocator.streaming.StreamingPolicies;
import org.elasticam.allocator.streaming.StreamingPolicy;
import org.elasticam.allocator.streaming.StreamingSettings;
import org.elasticam.workload.stream.BatchLoad;
import org.elasticam.workload.stream.RateProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real policies on {@code step:100@0,300@5min,100@15min}, batch 2 s, 15 ms a record (3 s of
 * work a batch, then 9 s, then 3 s again), up to 20 executors, in the simulator's default world:
 * each behaves as its design says.
 */
class PoliciesOnStepTest {

  private static final String RATE = "step:100@0,300@5min,100@15min";
  private static final long B = 2000;
  private static final int MAX = 20;
  private static final long UP_MS = 300_000;
  private static final StreamingWorld WORLD = new StreamingWorld(200, 1000, 0.1, 500, 20, false, new HeartbeatSchedule.Intervals(50, 200, 3000));

  /** The policy, recording when it changed the target and to what. */
  private static final class Recording implements StreamingPolicy {
    record Change(long atMs, int from, int to) {}

    final StreamingPolicy policy;
    final List<Change> changes = new ArrayList<>();

    Recording(StreamingPolicy policy) {
      this.policy = policy;
    }

    private StreamingDecision seen(StreamingDecision d, long nowMs) {
      if (d.targetChanged()) {
        changes.add(new Change(nowMs, d.previousTarget(), d.target()));
      }
      return d;
    }

    @Override
    public String name() {
      return policy.name();
    }

    @Override
    public void executorAdded(String id, long nowMs) {
      policy.executorAdded(id, nowMs);
    }

    @Override
    public void executorRemoved(String id, long nowMs) {
      policy.executorRemoved(id, nowMs);
    }

    @Override
    public void batchCompleted(BatchStats batch, long nowMs) {
      policy.batchCompleted(batch, nowMs);
    }

    @Override
    public StreamingDecision beforeBatch(int batch, long nowMs) {
      return seen(policy.beforeBatch(batch, nowMs), nowMs);
    }

    @Override
    public StreamingDecision tick(long nowMs) {
      return seen(policy.tick(nowMs), nowMs);
    }

    @Override
    public int target() {
      return policy.target();
    }
  }

  private record Run(Recording policy, StreamingResult result, StreamingMetrics metrics) {}

  private static Run run(String name) {
    RateProfile profile = RateProfile.parse(RATE, Path.of("."));
    BatchLoad load = new BatchLoad(profile, B, 15_000);
    Recording policy = new Recording(StreamingPolicies.create(name, StreamingSettings.defaults(1, MAX, 1, B), 1));
    StreamingResult r = StreamingSim.run(policy, new StreamingSim.Setup(load, 750, null, 10, 1, WORLD));
    return new Run(policy, r, StreamingMetrics.of(r.batches(), B, profile.changePointsMs(), r.executorMs() / 1000.0));
  }

  @ParameterizedTest
  @ValueSource(strings = {"rounds", "ratio", "model"})
  void everyPolicyGivesSaneFigures(String name) {
    Run run = run(name);
    StreamingMetrics m = run.metrics();
    assertAll(
        () -> assertEquals(750, m.batches()),
        () -> assertEquals(2, m.settleBatches().size()),
        () -> assertEquals(3, m.changesInTail().size()),
        () -> assertTrue(m.lateBatches() < 100, m.toString()),
        () -> assertTrue(m.meanProcessingRatio() > 0.3 && m.meanProcessingRatio() < 1.2, m.toString()),
        // Never fewer than one executor over the 1500 s, never more than 20.
        () -> assertTrue(m.executorSeconds() > 1400 && m.executorSeconds() < MAX * 1510.0, m.toString()),
        () -> assertTrue(run.result().peakExecutors() <= MAX),
        // The up-step is met: the 300 records/s segment settles.
        () -> assertTrue(m.settleBatches().get(0) >= 0, m.toString()));
  }

  @Test
  void roundsAsksForMaxAfterTheFirstLateBatchOfTheUpStep() {
    Run run = run("rounds");
    BatchStats late = run.result().batches().stream()
        .filter(b -> b.batchTimeMs() > UP_MS && b.processingMs() > B).findFirst().orElseThrow();
    Recording.Change up = run.policy().changes.stream().filter(c -> c.atMs() >= late.completedAtMs())
        .findFirst().orElseThrow();
    assertEquals(MAX, up.to());
    assertTrue(up.atMs() <= late.completedAtMs() + B, up + " after " + late);
    // Within three batches the executors are there.
    assertTrue(run.result().batches().subList(late.batch() + 1, late.batch() + 4).stream()
        .anyMatch(b -> b.executors() == MAX));
  }

  @Test
  void ratioAddsWithinItsScalingInterval() {
    Run run = run("ratio");
    Recording.Change up = run.policy().changes.stream().filter(c -> c.atMs() > UP_MS && c.to() > c.from())
        .findFirst().orElseThrow();
    assertTrue(up.atMs() <= UP_MS + B + 60_000, up.toString());
  }

  @Test
  void modelHasAtMostThreeLateBatchesPerStep() {
    Run run = run("model");
    List<List<BatchStats>> segments = StreamingMetrics.segments(run.result().batches(), List.of(300_000L, 900_000L));
    for (List<BatchStats> segment : segments) {
      long late = segment.stream().filter(b -> b.batch() >= 10 && b.processingMs() > B).count();
      assertTrue(late <= 3, late + " late batches in the segment from batch " + segment.get(0).batch());
    }
  }

  @Test
  void runsAreDeterministic() {
    for (String name : StreamingPolicies.names()) {
      assertEquals(run(name).result(), run(name).result(), name);
    }
  }
}
