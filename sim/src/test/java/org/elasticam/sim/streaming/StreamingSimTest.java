package org.elasticam.sim.streaming;

import org.elasticam.allocator.HeartbeatSchedule;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;
import org.elasticam.allocator.streaming.BatchStats;
import org.elasticam.allocator.streaming.StreamingDecision;
import org.elasticam.allocator.streaming.StreamingPolicy;
import org.elasticam.workload.stream.BatchLoad;
import org.elasticam.workload.stream.RateProfile;
import org.junit.jupiter.api.Test;

/** The simulation rules, on small loads whose every time can be worked out by hand. */
class StreamingSimTest {

  /** Grant 200 ms after the ask, start 1000 ms, no contention, 20 hosts. */
  private static final StreamingWorld WORLD = new StreamingWorld(200, 1000, 0, 500, 20, false, new HeartbeatSchedule.Intervals(50, 200, 3000));

  /**
   * A policy with a fixed target that records what it is told; {@code onTick} may return a decision
   * at a given time (a scripted removal), else nothing.
   */
  private static final class FixedPolicy implements StreamingPolicy {
    final List<String> events = new ArrayList<>();
    final List<BatchStats> completed = new ArrayList<>();
    int target;
    LongFunction<StreamingDecision> onTick = now -> null;
    int ticks;

    FixedPolicy(int target) {
      this.target = target;
    }

    @Override
    public String name() {
      return "fixed";
    }

    @Override
    public void executorAdded(String id, long nowMs) {
      events.add("+" + id + "@" + nowMs);
    }

    @Override
    public void executorRemoved(String id, long nowMs) {
      events.add("-" + id + "@" + nowMs);
    }

    @Override
    public void batchCompleted(BatchStats batch, long nowMs) {
      completed.add(batch);
    }

    @Override
    public StreamingDecision beforeBatch(int batch, long nowMs) {
      events.add("before" + batch + "@" + nowMs);
      return StreamingDecision.none(target, "");
    }

    @Override
    public StreamingDecision tick(long nowMs) {
      ticks++;
      StreamingDecision d = onTick.apply(nowMs);
      if (d != null) {
        target = d.target();
        return d;
      }
      return StreamingDecision.none(target, "");
    }

    @Override
    public int target() {
      return target;
    }
  }

  private static StreamingSim.Setup setup(String rate, long workUs, int batches, Integer partitions,
      StreamingWorld world) {
    BatchLoad load = new BatchLoad(RateProfile.parse(rate, Path.of(".")), 2000, workUs);
    return new StreamingSim.Setup(load, batches, partitions, 10, 1, world);
  }

  @Test
  void steadyLoadOnTwoExecutors() {
    // 200 records × 10 ms = 2000 ms of work a batch, 4 tasks of 500 + 10 ms on 2 executors: 1020 ms.
    FixedPolicy p = new FixedPolicy(2);
    StreamingResult r = StreamingSim.run(p, setup("const:100", 10_000, 5, null, WORLD));
    assertAll(
        () -> assertEquals(5, r.batches().size()),
        () -> assertEquals(List.of(1020L, 1020L, 1020L, 1020L, 1020L),
            r.batches().stream().map(BatchStats::processingMs).toList()),
        () -> assertEquals(List.of(2000L, 4000L, 6000L, 8000L, 10_000L),
            r.batches().stream().map(BatchStats::submittedAtMs).toList()),
        () -> assertEquals(2, r.batches().get(0).executors()),
        () -> assertEquals(200, r.batches().get(0).records()),
        // Both registered at 200 + 1000 ms; the last batch ends at 11,020 ms.
        () -> assertEquals(List.of("+1@1200", "+2@1200", "before0@2000"), p.events.subList(0, 3)),
        () -> assertEquals(11_020, r.endMs()),
        () -> assertEquals(2 * (11_020 - 1200), r.executorMs()),
        () -> assertEquals(2, r.asks()),
        () -> assertEquals(r.batches(), p.completed));
  }

  @Test
  void ticksEveryHundredMillisecondsUntilTheLastBatchEnds() {
    FixedPolicy p = new FixedPolicy(2);
    StreamingSim.run(p, setup("const:100", 10_000, 5, null, WORLD));
    // Ticks at 0, 100, …, 11,000: the run ends at 11,020.
    assertEquals(111, p.ticks);
  }

  @Test
  void executorsThatRegisterMidBatchTakeItsTasksAtOnce() {
    // Start takes 5 s: batch 0 is submitted at 2000 with no executor; both arrive at 5200.
    StreamingWorld slow = WORLD.withStartMs(5000);
    FixedPolicy p = new FixedPolicy(2);
    StreamingResult r = StreamingSim.run(p, setup("const:100", 10_000, 2, 2, slow));
    BatchStats first = r.batches().get(0);
    assertAll(
        () -> assertEquals(0, first.executors()),
        // Two tasks of 1000 + 10 ms, both started at 5200.
        () -> assertEquals(6210, first.completedAtMs()),
        // Batch 1 was due at 4000 and waited for batch 0.
        () -> assertEquals(6210, r.batches().get(1).submittedAtMs()),
        () -> assertEquals(2, r.batches().get(1).executors()));
  }

  @Test
  void aLateBatchDelaysTheNextSubmission() {
    // One executor, 3000 ms of work a batch in 2 tasks: 2 × 1510 = 3020 ms per batch.
    FixedPolicy p = new FixedPolicy(1);
    StreamingResult r = StreamingSim.run(p, setup("const:150", 10_000, 3, null, WORLD));
    assertEquals(List.of(2000L, 5020L, 8040L), r.batches().stream().map(BatchStats::submittedAtMs).toList());
    assertEquals(List.of(3020L, 3020L, 3020L), r.batches().stream().map(BatchStats::processingMs).toList());
  }

  @Test
  void aRemovedIdleExecutorLeavesAtOnceAndIsNotReplaced() {
    FixedPolicy p = new FixedPolicy(2);
    // At 3500 (between batches 0, done at 3020, and 1): remove executor 2, target 1.
    p.onTick = now -> now == 3500 ? new StreamingDecision(1, 2, List.of("2"), "test", "") : null;
    StreamingResult r = StreamingSim.run(p, setup("const:100", 10_000, 2, null, WORLD));
    assertAll(
        () -> assertTrue(p.events.contains("-2@3500"), p.events.toString()),
        () -> assertEquals(1, r.batches().get(1).executors()),
        // 2 tasks of 1010 ms on one executor.
        () -> assertEquals(2020, r.batches().get(1).processingMs()),
        () -> assertEquals(2, r.asks()),
        () -> assertEquals(2 * (3500 - 1200) + (6020 - 3500), r.executorMs()));
  }

  @Test
  void aRemovedBusyExecutorFinishesItsTaskThenLeaves() {
    FixedPolicy p = new FixedPolicy(2);
    // Batch 0 runs 2000–4040 (4 tasks of 1010 ms on 2 executors); at 2500 executor 2 is told to go:
    // it ends its first task at 3010 and takes no second one, so executor 1 runs the last two.
    p.onTick = now -> now == 2500 ? new StreamingDecision(1, 2, List.of("2"), "test", "") : null;
    StreamingResult r = StreamingSim.run(p, setup("const:200", 10_000, 1, null, WORLD));
    assertAll(
        () -> assertTrue(p.events.contains("-2@3010"), p.events.toString()),
        () -> assertEquals(2000 + 3 * 1010, r.batches().get(0).completedAtMs()));
  }

  @Test
  void aRaisedTargetAsksAndTheExecutorsComeAfterGrantAndStart() {
    FixedPolicy p = new FixedPolicy(1);
    p.onTick = now -> now == 2100 ? new StreamingDecision(3, 1, List.of(), "test", "") : null;
    StreamingResult r = StreamingSim.run(p, setup("const:100", 10_000, 3, null, WORLD));
    assertAll(
        () -> assertTrue(p.events.containsAll(List.of("+1@1200", "+2@3300", "+3@3300")), p.events.toString()),
        () -> assertEquals(3, r.asks()),
        () -> assertEquals(3, r.peakExecutors()),
        () -> assertEquals(1, r.targetChanges()));
  }

  @Test
  void startsOnOneHostContend() {
    // One host, contention 0.5: the second start takes 1.5 s, the third 2 s.
    StreamingWorld crowded = new StreamingWorld(200, 1000, 0.5, 500, 1, false, new HeartbeatSchedule.Intervals(50, 200, 3000));
    FixedPolicy p = new FixedPolicy(3);
    StreamingSim.run(p, setup("const:1", 1000, 3, null, crowded));
    assertEquals(List.of("+1@1200", "+2@1700", "+3@2200"), p.events.stream().filter(e -> e.startsWith("+")).toList());
  }

  @Test
  void capacityBoundsTheExecutors() {
    FixedPolicy p = new FixedPolicy(5);
    StreamingResult r = StreamingSim.run(p, setup("const:100", 10_000, 2, null, WORLD.withCapacity(2)));
    assertEquals(2, r.peakExecutors());
    assertEquals(2, r.asks());
  }

  @Test
  void aLoweredTargetWithdrawsAsksNotYetGranted() {
    FixedPolicy p = new FixedPolicy(1);
    // Up to 4 at 2100, back to 1 at 2200, before the grants of 2300.
    p.onTick = now -> now == 2100 ? new StreamingDecision(4, 1, List.of(), "up", "")
        : now == 2200 ? new StreamingDecision(1, 4, List.of(), "down", "") : null;
    StreamingResult r = StreamingSim.run(p, setup("const:100", 10_000, 3, null, WORLD));
    assertEquals(3, r.asksWithdrawn());
    assertEquals(1, r.peakExecutors());
  }

  @Test
  void grantDelayFollowsTheHeartbeatSchedule() {
    assertAll(
        () -> assertEquals(200, WORLD.grantDelayMs()),
        () -> assertEquals(0, WORLD.withGrantMs(0).grantDelayMs()),
        () -> assertEquals(150, WORLD.withGrantMs(115).grantDelayMs()),
        () -> assertEquals(600, WORLD.withGrantMs(201).grantDelayMs()),
        () -> assertEquals(1400, WORLD.withGrantMs(700).grantDelayMs()),
        () -> assertEquals(6000, WORLD.withGrantMs(3500).grantDelayMs()));
  }

  @Test
  void aRunThatCannotKeepUpStopsWithAReason() {
    // 4000 records at 1000 s each take 46 days on one executor: more than 30 days after the batch was due.
    FixedPolicy p = new FixedPolicy(1);
    StreamingSim.Setup s = new StreamingSim.Setup(new BatchLoad(RateProfile.parse("const:2000", Path.of(".")), 2000,
        1_000_000_000L), 1, 1, 10, 1, WORLD);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> StreamingSim.run(p, s));
    assertTrue(e.getMessage().startsWith("fixed: batch 0 still running 30 days after"), e.getMessage());
  }
}
