package org.elasticam.engine.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.elasticam.allocator.streaming.BatchStats;
import org.elasticam.allocator.streaming.StreamingDecision;
import org.elasticam.allocator.streaming.StreamingPolicy;
import org.elasticam.api.ShuffleSpec;
import org.elasticam.api.Stage;
import org.elasticam.api.TaskSpec;
import org.elasticam.report.events.Event;
import org.elasticam.report.events.EventFields;
import org.elasticam.workload.stream.BatchLoad;
import org.elasticam.workload.stream.RateProfile;
import org.junit.jupiter.api.Test;

/** A streaming job through the engine on the manual clock: batches in order, and a retired executor. */
class StreamingEngineTest {

  private final EngineHarness h = new EngineHarness();

  /** Two executors until batch 2, then one: executor 2 is retired before that batch. */
  private static final class RetireBeforeBatchTwo implements StreamingPolicy {
    final List<BatchStats> seen = new ArrayList<>();
    final Set<String> live = new TreeSet<>();
    int target = 2;
    int retiredBefore = -1;

    @Override
    public String name() {
      return "retire-before-batch-two";
    }

    @Override
    public void executorAdded(String id, long nowMs) {
      live.add(id);
    }

    @Override
    public void executorRemoved(String id, long nowMs) {
      live.remove(id);
    }

    @Override
    public void batchCompleted(BatchStats batch, long nowMs) {
      seen.add(batch);
    }

    @Override
    public StreamingDecision beforeBatch(int batch, long nowMs) {
      if (batch >= 2 && retiredBefore < 0 && live.contains("2")) {
        target = 1;
        retiredBefore = batch;
        return new StreamingDecision(1, 2, List.of("2"), "batch 2: one executor is enough", "live=" + live);
      }
      return StreamingDecision.none(target, "live=" + live);
    }

    @Override
    public StreamingDecision tick(long nowMs) {
      return StreamingDecision.none(target, "");
    }

    @Override
    public int target() {
      return target;
    }
  }

  /** 20 records/s in 300 ms batches: 6 records a batch; two tasks per executor at submission. */
  private static StreamingPlan counting(int batches) {
    BatchLoad load = new BatchLoad(RateProfile.parse("const:20", Path.of(".")), 300, 2000);
    return new StreamingPlan(in -> List.of(Stage.builder(0, "count", "T").tasks(in.partitions()).build()), load,
        batches, null, "const:20");
  }

  @Test
  void aBatchsStagesKeepTheirShuffleSpecUnderTheirBatchsIds() throws Exception {
    ShuffleSpec spec = new ShuffleSpec("", "o.Descending", "c.Sum", Map.of());
    BatchLoad load = new BatchLoad(RateProfile.parse("const:20", Path.of(".")), 300, 2000);
    StreamingPlan plan = new StreamingPlan(in -> List.of(new Stage(0, "map", List.of(), "T", List.of(TaskSpec.EMPTY),
        2, spec), Stage.builder(1, "reduce", "T").parents(0).tasks(2).build()), load, 3, null, "const:20");
    List<Stage> batch = plan.batch(2, 1);
    assertEquals(2 * StreamingPlan.STAGE_ID_STRIDE, batch.get(0).id());
    assertEquals(spec, batch.get(0).shuffle());
    assertTrue(batch.get(1).shuffle().isDefault());
  }

  @Test
  void aBatchsStageThatDeclaresAnOutputDirectoryIsRefusedWithTheReason() {
    BatchLoad load = new BatchLoad(RateProfile.parse("const:20", Path.of(".")), 300, 2000);
    StreamingPlan plan = new StreamingPlan(in -> List.of(Stage.builder(0, "write", "T").tasks(1)
        .writesOutput("/out").build()), load, 3, null, "const:20");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> plan.batch(0, 1));
    assertTrue(e.getMessage().startsWith("batch 0: stage 0 (write) declares an output directory"), e.getMessage());
  }

  /** Every 100 ms, the executors report every task they were given as succeeded, until the job ends. */
  private void runToTheEnd(JobEngine e, List<JobEngine.Session> sessions, List<EngineHarness.Link> links) {
    for (int step = 0; step < 200 && h.outcome == null; step++) {
      h.time.advance(Duration.ofMillis(100));
      for (int i = 0; i < links.size(); i++) {
        EngineHarness.succeedAll(e, sessions.get(i), links.get(i));
      }
    }
  }

  @Test
  void batchesRunInOrderAndARetiredExecutorGetsNoMoreTasks() {
    StreamingPlan plan = counting(5);
    RetireBeforeBatchTwo policy = new RetireBeforeBatchTwo();
    JobEngine e = h.engine(EngineHarness.settings(0.0, Duration.ZERO), plan, new JobPolicies(null, policy, false));
    e.start();
    EngineHarness.Link l1 = new EngineHarness.Link();
    EngineHarness.Link l2 = new EngineHarness.Link();
    JobEngine.Session s1 = h.register(e, "1", l1);
    JobEngine.Session s2 = h.register(e, "2", l2);

    runToTheEnd(e, List.of(s1, s2), List.of(l1, l2));

    assertEquals(Outcome.Status.SUCCEEDED, h.outcome.status(), h.outcome.diagnostics());
    assertEquals(List.of(0, 1, 2, 3, 4), policy.seen.stream().map(BatchStats::batch).toList());
    assertTrue(policy.seen.stream().allMatch(b -> b.records() == 6), policy.seen.toString());
    assertEquals(2, policy.seen.get(0).executors(), "both registered before the first batch");
    assertEquals(1, policy.seen.get(4).executors(), "the retired executor no longer counts");
    assertEquals(2, policy.retiredBefore);
    assertEquals(List.of("2: removed by the streaming policy"), h.allocator.killed);
    assertEquals(5, h.named(Event.BATCH_COMPLETED).size());
    // Stage ids are batch x 1000: no task of a batch from the retirement on ran on executor 2.
    assertTrue(h.named(Event.TASK_START).stream().filter(w -> "2".equals(w.field(EventFields.EXECUTOR_ID)))
        .allMatch(w -> (Integer) w.field(EventFields.STAGE_ID) < policy.retiredBefore * StreamingPlan.STAGE_ID_STRIDE),
        h.named(Event.TASK_START).toString());
  }

  /** After an AM restart the stream goes on with the batch after the last one done, and runs exactly the rest. */
  @Test
  void afterARestartTheStreamGoesOnWithTheBatchAfterTheLastOneDone() {
    JobEngine e = h.engine(EngineHarness.settings(0.0, Duration.ZERO), counting(6), JobPolicies.STATIC);
    e.recover(new org.elasticam.engine.recovery.Restarted(List.of(), List.of(), Set.of("1"), Duration.ofSeconds(20),
        h.time.clock().nowMs() - 1000, 3));
    e.start();
    EngineHarness.Link l1 = new EngineHarness.Link();
    JobEngine.Session s1 = h.register(e, "1", l1);
    runToTheEnd(e, List.of(s1), List.of(l1));

    assertEquals(Outcome.Status.SUCCEEDED, h.outcome.status(), h.outcome.diagnostics());
    assertEquals(List.of(3, 4, 5), h.named(Event.BATCH_COMPLETED).stream().map(w -> w.field(EventFields.BATCH))
        .toList(), "exactly the batches not done");
    assertTrue(h.named(Event.TASK_START).stream().allMatch(w -> (Integer) w.field(EventFields.STAGE_ID)
        >= 3 * StreamingPlan.STAGE_ID_STRIDE), "no batch the first attempt did ran again");
    assertEquals(1f, e.progress());
  }
}
