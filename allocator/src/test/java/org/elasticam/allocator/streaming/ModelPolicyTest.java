package org.elasticam.allocator.streaming;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The model policy against a tiny simulated cluster: a batch of r records on E executors takes
 * {@code workPerRecordMs × r / E + overheadMs}, executors arrive and leave the moment the policy says,
 * a batch starts at its due time or when the one before it ends. Interval 1 s, utilization 0.8.
 */
class ModelPolicyTest {

  private static final long D = 1_000;

  private static StreamingSettings settings(int min, int max, int initial) {
    return new StreamingSettings(min, max, initial, D, 10, 1, 0.2, 5, 60_000, 0.9, 0.3, 0.8);
  }

  /** The cluster: it runs batches, carries out every decision at once and keeps them. */
  private static final class Cluster {
    final ModelPolicy policy;
    final double workPerRecordMs;
    final long overheadMs;
    final TreeSet<Integer> live = new TreeSet<>();
    final List<Decided> decisions = new ArrayList<>();
    final List<BatchStats> batches = new ArrayList<>();
    int nextId = 1;
    int batch;
    long freeAtMs;

    Cluster(ModelPolicy policy, int executors, double workPerRecordMs, long overheadMs) {
      this.policy = policy;
      this.workPerRecordMs = workPerRecordMs;
      this.overheadMs = overheadMs;
      grow(executors, 0);
    }

    BatchStats run(long records) {
      long due = batch * D;
      long submitted = Math.max(due, freeAtMs);
      apply(policy.beforeBatch(batch, submitted), submitted);
      int executors = live.size();
      long processing = Math.round(workPerRecordMs * records / executors) + overheadMs;
      BatchStats b = new BatchStats(batch, due, submitted, submitted + processing, records, executors, false);
      policy.batchCompleted(b, b.completedAtMs());
      batches.add(b);
      freeAtMs = b.completedAtMs();
      batch++;
      apply(policy.tick(b.completedAtMs()), b.completedAtMs());
      return b;
    }

    void run(long records, int count) {
      for (int i = 0; i < count; i++) {
        run(records);
      }
    }

    void apply(StreamingDecision d, long nowMs) {
      assertFalse(d.isEmpty() && d.target() != policy.target(), d.toString());
      if (d.isEmpty()) {
        return;
      }
      assertFalse(d.reason().isEmpty(), d.toString());
      decisions.add(new Decided(batch, live.size(), d));
      for (String id : d.remove()) {
        assertTrue(live.remove(Integer.parseInt(id)), "not live: " + id);
        policy.executorRemoved(id, nowMs);
      }
      assertEquals(d.target(), policy.target());
      grow(d.target() - live.size(), nowMs);
    }

    void grow(int count, long nowMs) {
      for (int i = 0; i < count; i++) {
        live.add(nextId);
        policy.executorAdded(Integer.toString(nextId++), nowMs);
      }
    }

    List<Decided> decisionsFrom(int batch) {
      return decisions.stream().filter(d -> d.batch >= batch).toList();
    }

    boolean lateFrom(int batch) {
      return batches.subList(batch, batches.size()).stream().anyMatch(b -> b.delayed(D));
    }
  }

  /** A decision, the first batch it applies to, and the fleet it found. */
  private record Decided(int batch, int fleet, StreamingDecision decision) {
    boolean up() {
      return decision.target() > decision.previousTarget();
    }

    int removed() {
      return decision.remove().size();
    }
  }

  /** 1000 records a batch: 4.5 s of work plus 40 ms per batch. Best fleet: ceil(4500 / 760) = 6. */
  private static Cluster steady(int initial) {
    Cluster c = new Cluster(new ModelPolicy(settings(1, 40, initial)), initial, 4.5, 40);
    c.run(1_000, 30);
    return c;
  }

  @Test
  void steadyLoadSettlesAndThenChangesNothing() {
    Cluster c = steady(10);
    assertEquals(6, c.live.size(), c.decisions.toString());
    assertTrue(c.decisions.stream().noneMatch(Decided::up), c.decisions.toString());
    int settled = c.batch;
    c.run(1_000, 50);
    assertEquals(List.of(), c.decisionsFrom(settled));
    assertFalse(c.lateFrom(0), "scaling down never made a batch late");
  }

  @Test
  void steadyLoadFromTooFewExecutorsDrainsTheBacklogThenSettles() {
    Cluster c = new Cluster(new ModelPolicy(settings(1, 40, 2)), 2, 4.5, 40);
    c.run(1_000, 60);
    // Up while batches start late (the backlog sizes the fleet), then down to the need in one step.
    List<Decided> ups = c.decisions.stream().filter(Decided::up).toList();
    assertTrue(ups.size() <= 2 && ups.stream().allMatch(d -> d.batch <= 4), c.decisions.toString());
    List<Decided> downs = c.decisions.stream().filter(d -> !d.up()).toList();
    assertEquals(1, downs.size(), c.decisions.toString());
    assertTrue(downs.get(0).decision.reason().contains("the backlog is drained"), downs.toString());
    assertEquals(6, c.live.size(), c.decisions.toString());
    assertEquals(List.of(), c.decisionsFrom(30));
  }

  @Test
  void aTripledRateGetsOneStepUpWithinTwoBatches() {
    Cluster c = steady(6);
    int before = c.live.size();
    int step = c.batch;
    c.run(3_000, 60);
    List<Decided> after = c.decisionsFrom(step);
    List<Decided> ups = after.stream().filter(Decided::up).toList();
    assertEquals(1, ups.size(), after.toString());
    Decided up = ups.get(0);
    assertTrue(up.batch <= step + 2, "up-step at batch " + up.batch + ", the step at " + step);
    // the fit sees 4.5 ms and 40 ms exactly: the load needs ceil(13500 / 760) = 18; the batch was
    // 1290 ms late, so the next ones are planned at 1000 - 1290 / 3 = 570 ms: ceil(13500 / 530) = 26
    assertEquals(26, up.decision.target(), up.decision.reason());
    assertTrue(up.decision.reason().contains("late") && up.decision.reason().contains("drain"),
        up.decision.reason());
    int fleet = c.live.size();
    assertTrue(fleet >= 2.5 * before && fleet <= 3.5 * before, before + " -> " + fleet + ": " + after);
    assertEquals(List.of(), c.decisionsFrom(c.batch - 30), "stable again");
    assertFalse(c.lateFrom(c.batch - 40));
  }

  @Test
  void aRateCutToAThirdStepsDownInBoundedStepsThenHolds() {
    Cluster c = new Cluster(new ModelPolicy(settings(1, 40, 18)), 18, 4.5, 40);
    c.run(3_000, 40);
    int before = c.live.size();
    int step = c.batch;
    c.run(1_000, 60);
    List<Decided> after = c.decisionsFrom(step);
    assertTrue(after.stream().noneMatch(Decided::up), after.toString());
    assertTrue(after.size() >= 2 && after.size() <= 6, after.toString());
    for (Decided d : after) {
      // never more than half the fleet in one step, never below the true need of 6
      assertTrue(d.removed() <= (d.fleet + 1) / 2 && d.fleet - d.removed() >= 6, d.toString());
      assertEquals(d.fleet - d.removed(), d.decision.target());
    }
    assertTrue(after.get(0).batch >= step + 1, "a single smaller batch is not believed: " + after);
    assertEquals(6, c.live.size(), before + " -> " + c.live.size() + ": " + after);
    assertEquals(List.of(), c.decisionsFrom(c.batch - 30));
    assertFalse(c.lateFrom(step), "scaling down never made a batch late");
  }

  @Test
  void oneSmallBatchIsNotBelieved() {
    Cluster c = steady(6);
    int from = c.batch;
    c.run(300);
    c.run(1_000, 10);
    assertEquals(List.of(), c.decisionsFrom(from));
  }

  @Test
  void nothingIsDecidedDuringTheWarmUp() {
    ModelPolicy p = new ModelPolicy(settings(1, 40, 20));
    Cluster c = new Cluster(p, 20, 4.5, 40);
    c.run(1_000, 3);
    assertEquals(List.of(), c.decisions);
    c.run(1_000);
    assertEquals(1, c.decisions.size());
    assertEquals(3, c.decisions.get(0).batch, "decided before the 4th batch");
  }

  @Test
  void aLateBatchAfterTheFirstStepsUpDuringTheWarmUp() {
    Cluster c = new Cluster(new ModelPolicy(settings(1, 40, 2)), 2, 4.5, 40);
    c.run(1_000);
    assertEquals(List.of(), c.decisions, "the first batch alone is not trusted");
    c.run(1_000);
    assertEquals(1, c.decisions.size());
    Decided up = c.decisions.get(0);
    assertTrue(up.up(), up.toString());
    assertEquals(2, up.batch, "decided on the tick after batch 1, before batch 2");
    assertTrue(c.policy.beforeBatch(2, c.freeAtMs).isEmpty(), "and only once");
  }

  @Test
  void theTickActsOnlyOnALateBatch() {
    ModelPolicy p = new ModelPolicy(settings(1, 40, 20));
    Cluster c = new Cluster(p, 20, 4.5, 40);
    c.run(1_000, 5);
    assertTrue(p.tick(1_000_000).isEmpty());
  }

  @Test
  void failedBatchesAreIgnored() {
    Cluster c = steady(6);
    int from = c.batch;
    long due = c.batch * D;
    c.policy.batchCompleted(new BatchStats(c.batch, due, due, due + 20_000, 1_000_000, 6, true), due + 20_000);
    assertTrue(c.policy.tick(due + 20_000).isEmpty());
    assertTrue(c.policy.beforeBatch(c.batch + 1, due + 20_000).isEmpty());
    c.batch++;
    c.run(1_000, 5);
    assertEquals(List.of(), c.decisionsFrom(from));
  }

  @Test
  void theFitFindsCostAndOverheadWhenTheLoadVaries() {
    ModelPolicy p = new ModelPolicy(settings(1, 40, 10));
    for (int i = 0; i < 25; i++) {
      long records = 1_000 + 100L * (i % 7);
      p.batchCompleted(batch(i, records, 10, Math.round(2.0 * records / 10) + 100), 0);
    }
    ModelPolicy.Fit fit = p.fit();
    assertEquals(2.0, fit.a(), 0.01);
    assertEquals(100, fit.b(), 1.0);
    assertTrue(fit.how().startsWith("least squares over 20"), fit.how());
  }

  @Test
  void withOneLoadLevelTheOverheadComesFromANearlyEmptyBatch() {
    ModelPolicy p = new ModelPolicy(settings(1, 40, 10));
    p.batchCompleted(batch(0, 1_000, 10, 300), 0);
    assertEquals(3.0, p.fit().a(), 1e-9, "no overhead known: P = a x");
    assertEquals(0, p.fit().b());
    p.batchCompleted(batch(1, 5, 10, 60), 0);
    p.batchCompleted(batch(2, 0, 10, 50), 0);
    // the window now varies; back at one load level, b is the 50 ms of the empty batch
    for (int i = 3; i < 30; i++) {
      p.batchCompleted(batch(i, 1_000, 10, 300), 0);
    }
    ModelPolicy.Fit fit = p.fit();
    assertEquals(50, fit.b());
    assertEquals((300 - 50) / 100.0, fit.a(), 1e-9);
    assertTrue(fit.how().contains("near-empty"), fit.how());
  }

  @Test
  void aFallingLineIsNoModel() {
    ModelPolicy p = new ModelPolicy(settings(1, 40, 10));
    p.batchCompleted(batch(0, 1_000, 10, 500), 0);
    p.batchCompleted(batch(1, 2_000, 10, 400), 0);
    ModelPolicy.Fit fit = p.fit();
    assertEquals(0, fit.b());
    assertEquals(450 / 150.0, fit.a(), 1e-9);
  }

  @Test
  void anOverheadBeyondTheBudgetAsksForTheMaximum() {
    ModelPolicy p = new ModelPolicy(settings(1, 40, 10));
    for (int i = 1; i <= 10; i++) {
      p.executorAdded(Integer.toString(i), 0);
    }
    p.batchCompleted(batch(0, 0, 10, 850), 0);
    p.batchCompleted(batch(1, 1_000, 10, 900), 0);
    p.batchCompleted(batch(2, 1_000, 10, 900), 0);
    // 0.8 x 1000 ms - 850 ms < 0: no fleet makes it in time
    assertEquals(40, p.beforeBatch(3, 10_000).target());
  }

  @Test
  void neverAboveTheMaximumNorBelowTheMinimum() {
    Cluster big = new Cluster(new ModelPolicy(settings(1, 12, 6)), 6, 4.5, 40);
    big.run(3_000, 30);
    assertEquals(12, big.live.size());
    Cluster idle = new Cluster(new ModelPolicy(settings(3, 40, 20)), 20, 4.5, 40);
    idle.run(0, 40);
    assertEquals(3, idle.live.size());
  }

  private static BatchStats batch(int n, long records, int executors, long processingMs) {
    long due = n * D;
    return new BatchStats(n, due, due, due + processingMs, records, executors, false);
  }
}
