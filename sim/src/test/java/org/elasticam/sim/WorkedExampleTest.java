package org.elasticam.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Small traces whose every figure is worked out by hand, with the defaults: grant 200 ms, start
 * 1 s (+10 % per executor already starting on the host), heartbeat 3 s / 200 ms, 1 core, backlog
 * timeout 1 s, idle timeout 60 s.
 */
class WorkedExampleTest {

  @TempDir
  Path dir;

  /**
   * One stage of 4 tasks x 10 s, submitted at 0. Spark's ramp: the backlog timer fires at 1000
   * (target 1), then every second: 1 + 2 = 3 at 2000, then min(3 + 4, need 4) = 4 at 3000. Each
   * target change heartbeats at once, the grant comes with the next heartbeat 200 ms later, and the
   * executor registers 1 s after that (spread placement puts each on its own host: no contention).
   * Executors register at 2200, 3200, 3200, 4200; tasks end at 12200, 13200, 13200, 14200.
   */
  @Test
  void sparkRampsOneThreeFourAndEverySecondCounts() {
    Path trace = Traces.write(dir, "four", Traces.stage(0, 0, List.of(), Traces.repeat(4, 10_000)));
    Traces.Logged run = Traces.run(trace, "spark", Traces.config());

    List<JsonNode> targets = run.named("target_changed");
    assertEquals(List.of(0, 1, 3, 4, 3, 1), targets.stream().map(t -> t.get("target").asInt()).toList());
    assertEquals(List.of(0L, 1000L, 2000L, 3000L, 12_200L, 13_200L), targets.stream().map(Traces.Logged::at).toList());
    assertEquals(List.of(2200L, 3200L, 3200L, 4200L),
        run.named("executor_registered").stream().map(Traces.Logged::at).toList());
    List<JsonNode> asks = run.named("containers_requested");
    List<JsonNode> grants = run.named("container_allocated");
    for (int i = 0; i < grants.size(); i++) {
      assertEquals(200, Traces.Logged.at(grants.get(i)) - Traces.Logged.at(asks.get(i)), "grant " + i);
    }

    SimResult r = run.result();
    assertEquals(14_200, r.makespanMs());
    // Held from grant to the end: 13 + 12 + 12 + 11 s; busy 10 s each.
    assertEquals(48_000, r.executorMs());
    assertEquals(8_000, r.idleExecutorMs());
    assertEquals(4_200, r.timeToFullParallelismMs());
    assertEquals(4, r.peakExecutors());
    assertEquals(4, r.requestsAdded());
    assertEquals(0, r.requestsCancelled());
    assertEquals(0, r.executorsKilled());
    String appEnd = run.lines().get(run.lines().size() - 1);
    assertTrue(appEnd.endsWith("\"event\":\"app_end\",\"final_status\":\"SUCCEEDED\",\"diagnostics\":"
        + "\"all 4 tasks of 1 stages succeeded\",\"executor_seconds\":48.000}"), appEnd);
  }

  @Test
  void theOracleRunsEveryTaskAtOnce() {
    Path trace = Traces.write(dir, "four", Traces.stage(0, 0, List.of(), Traces.repeat(4, 10_000)));
    SimResult o = Oracle.run(Traces.read(trace), "four", Traces.config());
    assertEquals(10_000, o.makespanMs());
    assertEquals(40_000, o.executorMs());
    assertEquals(0, o.idleExecutorMs());
    assertEquals(4, o.peakExecutors());
  }

  /** Four 10 s tasks in a queue of 2 containers: two run, then the other two, first come first served. */
  @Test
  void theOracleStaysWithinTheCapacity() {
    Path trace = Traces.write(dir, "four", Traces.stage(0, 0, List.of(), Traces.repeat(4, 10_000)));
    SimResult o = Oracle.run(Traces.read(trace), "four", SimConfig.of(Map.of(),
        SimParams.defaults().withCapacity(2).withHosts(2)));
    assertEquals(20_000, o.makespanMs());
    assertEquals(40_000, o.executorMs());
    assertEquals(2, o.peakExecutors());
  }

  /**
   * The oracle's curve 0 → 2 → 1 → 2 → 0 (a 10 s and a 4 s task, then a 3 s task 2 s after the
   * short one ended): the start-aware bound pays two starts (grant 200 + start 1000 ms each) for
   * the first rise, and a start again for the second: keeping the executor freed 2 s before would
   * cost more. With a 5 s start the gap is the cheaper.
   */
  @Test
  void theStartAwareBoundPaysAStartPerNewExecutorOrTheIdleGapIfCheaper() {
    Path trace = Traces.write(dir, "bound",
        Traces.stage(0, 0, List.of(), 10_000),
        Traces.stage(1, 0, List.of(), 4_000),
        Traces.stage(2, 6_000, List.of(1), 3_000));
    SimResult o = Oracle.run(Traces.read(trace), "bound", Traces.config());
    assertEquals(17_000, o.executorMs());
    SimResult bound = Oracle.startAwareBound(o, Traces.config().params());
    assertEquals(Oracle.BOUND, bound.policy());
    assertEquals(17_000 + 2 * 1_200 + 1_200, bound.executorMs(), "a 2 s gap costs more than a 1.2 s start");
    assertEquals(o.makespanMs(), bound.makespanMs());
    SimConfig slow = SimConfig.of(Map.of(), SimParams.defaults().withStartMs(4_800));
    assertEquals(17_000 + 2 * 5_000 + 2_000, Oracle.startAwareBound(Oracle.run(Traces.read(trace), "bound", slow),
        slow.params()).executorMs());
  }

  /**
   * Stage 0 (3 s and 1 s tasks) at 0; stage 1 (a 4 s task) 500 ms after stage 0 ended; stage 2
   * (2 s) after stage 1 plus 0. The oracle's makespan is the critical path 3 + 0.5 + 4 + 2 = 9.5 s,
   * its executor-seconds the task-seconds 3 + 1 + 4 + 2 = 10.
   */
  @Test
  void theOracleMakespanIsTheCriticalPath() {
    Path trace = Traces.write(dir, "chain",
        Traces.stage(0, 0, List.of(), 3000, 1000),
        Traces.stage(1, 3500, List.of(0), 4000),
        Traces.stage(2, 7500, List.of(1), 2000));
    SimResult o = Oracle.run(Traces.read(trace), "chain", Traces.config());
    assertEquals(9_500, o.makespanMs());
    assertEquals(10_000, o.executorMs());
    SimResult half = Oracle.run(Traces.read(trace), "chain", SimConfig.of(Map.of(),
        SimParams.defaults().withTimeScale(0.5)));
    assertEquals(4_750, half.makespanMs(), "--time-scale scales durations and gaps alike");
    SimResult spark = Traces.run(trace, "spark", Traces.config()).result();
    assertTrue(spark.makespanMs() > o.makespanMs());
    assertTrue(spark.executorMs() >= o.executorMs());
  }

  /**
   * One host: the two executors launched together at 2200 start one after the other's contention,
   * 1000 ms and 1100 ms; with --grant-ms 300 the grant misses the heartbeat 200 ms after the ask and
   * comes with the one after, 200 + 400 ms after it.
   */
  @Test
  void startContentionAndSlowGrants() {
    Path trace = Traces.write(dir, "three", Traces.stage(0, 0, List.of(), Traces.repeat(3, 10_000)));
    Traces.Logged oneHost = Traces.run(trace, "spark", SimConfig.of(Map.of(), SimParams.defaults().withHosts(1)));
    assertEquals(List.of(2200L, 3200L, 3300L),
        oneHost.named("executor_registered").stream().map(Traces.Logged::at).toList());

    Traces.Logged slow = Traces.run(trace, "spark", SimConfig.of(Map.of(), SimParams.defaults().withGrantMs(300)));
    long asked = Traces.Logged.at(slow.named("containers_requested").get(0));
    assertEquals(asked + 600, Traces.Logged.at(slow.named("container_allocated").get(0)));
  }

  /**
   * A 5 s stage, then a stage with no parents 100 s later. The executor registers at 2200, runs
   * its task until 7200, and is killed at the first tick 60 s later (67200, a tick); the second
   * stage asks afresh.
   */
  @Test
  void idleExecutorsAreKilledAfterTheIdleTimeout() {
    Path trace = Traces.write(dir, "gap",
        Traces.stage(0, 0, List.of(), 5000),
        Traces.stage(1, 100_000, List.of(), 5000));
    Traces.Logged run = Traces.run(trace, "spark", Traces.config());
    long taskEnd = Traces.Logged.at(run.named("task_end").get(0));
    assertEquals(7200, taskEnd);
    JsonNode released = run.named("container_released").get(0);
    assertEquals("idle: no task past its idle deadline", released.get("reason").asText(), "the AM's reason");
    assertEquals(taskEnd + 60_000, Traces.Logged.at(released));
    JsonNode removed = run.named("executor_removed").get(0);
    assertEquals("idle", removed.get("reason").asText());
    assertEquals(1, run.result().executorsKilled());
    // Stage 1 waits 100 s - 5 s after stage 0 ended at 7200: 102200, then 1 s backlog, 200 ms
    // grant, 1 s start, 5 s task.
    assertEquals(102_200 + 1000 + 200 + 1000 + 5000, run.result().makespanMs());
    assertEquals("app_end", run.named("executor_removed").get(1).get("reason").asText());
  }
}
