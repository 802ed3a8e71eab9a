package org.elasticam.allocator.dynamic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.elasticam.conf.Durations;
import org.junit.jupiter.api.Test;

/** The elastic policy's rules, and Spark's guarantees it keeps. */
class ElasticPolicyTest {

  private long now = 100_000;

  private static ElasticPolicy policy(int min, int max, int initial, Duration idle) {
    return policy(min, max, initial, idle, Duration.ofSeconds(3));
  }

  private static ElasticPolicy policy(int min, int max, int initial, Duration idle, Duration localityWait) {
    return new ElasticPolicy(new PolicySettings(min, max, initial, 1.0, 1, 1, Duration.ofSeconds(1),
        Duration.ofSeconds(1), idle, Durations.INFINITE, Durations.INFINITE, false, localityWait, 2.2, 10.0));
  }

  private static ElasticPolicy policy(int min, int max, int initial) {
    return policy(min, max, initial, Duration.ofSeconds(60));
  }

  /** Executors 1..n registered, each after {@code latencyMs}. */
  private void executors(ElasticPolicy p, int n, long latencyMs) {
    for (int i = 1; i <= n; i++) {
      p.executorAdded(String.valueOf(i), latencyMs, now);
    }
  }

  /** Runs {@code count} tasks of the stage to completion, each taking {@code ms}, on executor 1. */
  private void finishTasks(ElasticPolicy p, int stage, int from, int count, long ms) {
    for (int i = from; i < from + count; i++) {
      TaskInfo t = new TaskInfo(stage, 0, i, "1", false);
      p.taskStarted(t, now);
      now += ms;
      p.taskEnded(t, TaskOutcome.SUCCESS, ms, now);
    }
  }

  /** The simulator's ablation names: each switches off exactly its rules, and reads back as given. */
  @Test
  void rulesSwitchedOffByNameForMeasuringThem() {
    PolicySettings settings = new PolicySettings(0, 10, 0, 1.0, 1, 1, Duration.ofSeconds(1), Duration.ofSeconds(1),
        Duration.ofSeconds(60), Durations.INFINITE, Durations.INFINITE, false, Duration.ofSeconds(3), 2.2, 10.0);
    assertEquals("elastic", AllocationPolicies.create("elastic", settings).name());
    assertEquals("elastic-without-spark-floor+regret-budget",
        AllocationPolicies.create("elastic-without-regret-budget+spark-floor", settings).name());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> AllocationPolicies.create("elastic-without-magic", settings));
    assertTrue(e.getMessage().contains("unknown rule of elastic 'magic' (known: own-asks, adaptive-bar,"), e.getMessage());

    // Without its ski-rental rule an idle executor is kept for executorIdleTimeout, as Spark keeps it.
    ElasticPolicy without = new ElasticPolicy(settings, java.util.EnumSet.of(ElasticPolicy.Rule.SKI_RENTAL_IDLE));
    ElasticPolicy with = new ElasticPolicy(settings);
    assertEquals(Duration.ofSeconds(60), without.idleTimeout());
    assertTrue(with.idleTimeout().compareTo(Duration.ofSeconds(60)) < 0, with.idleTimeout().toString());
  }

  @Test
  void holdsTheInitialTargetUntilTheFirstStage() {
    ElasticPolicy p = policy(0, 10, 3);
    assertEquals(3, p.tick(now += 50_000).target());
  }

  @Test
  void aLongBacklogGetsItsExecutorsInOneRound() {
    ElasticPolicy p = policy(0, 100, 0);
    executors(p, 1, 1_000);
    p.stageSubmitted(StageInfo.simple(0, 200), now);
    finishTasks(p, 0, 0, 3, 10_000);
    PolicyDecision d = p.tick(now);
    // 197 tasks of 10 s; 1 executor does 1 s of it before new ones arrive: ~196 executors worth it, need 197.
    assertTrue(d.target() > 50, "one round, no 1-2-4 ramp: " + d.target());
    assertTrue(d.target() <= 100, "never above max");
    assertTrue(d.reason().startsWith("the backlog is worth"), d.reason());
  }

  @Test
  void tinyTasksGetNoExecutorsThatWouldArriveTooLate() {
    ElasticPolicy p = policy(0, 100, 0);
    executors(p, 2, 3_000);
    p.stageSubmitted(StageInfo.simple(0, 60), now);
    finishTasks(p, 0, 0, 10, 20);
    PolicyDecision d = p.tick(now);
    // 50 tasks of 20 ms = 1 s of work for 2 executors: done long before a 3 s start latency.
    assertEquals(0, d.target() > 2 ? 1 : 0, "no new executors: " + d.target());
  }

  @Test
  void theTargetNeverExceedsTheNeed() {
    ElasticPolicy p = policy(0, 100, 0);
    executors(p, 1, 500);
    p.stageSubmitted(StageInfo.simple(0, 8), now);
    finishTasks(p, 0, 0, 2, 60_000);
    assertTrue(p.tick(now).target() <= 6, "6 tasks left need at most 6 executors");
  }

  @Test
  void aStageNothingOfWhichRanGetsOneExecutorAtOnceAndNoFlood() {
    ElasticPolicy p = policy(0, 100, 0);
    p.stageSubmitted(StageInfo.simple(0, 1_000), now);
    assertEquals(1, p.tick(now += 100).target(), "no backlog timeout to wait for");
    assertEquals(1, p.tick(now += 5_000).target(), "nothing known of its tasks: no ramp either");
  }

  /** Executors first..first+n-1 each running a task of the stage, started {@code agoMs} ago. */
  private void running(ElasticPolicy p, int stage, int first, int n, long agoMs) {
    for (int i = first; i < first + n; i++) {
      p.taskStarted(new TaskInfo(stage, 0, 100 + i, String.valueOf(i), false), now - agoMs);
    }
  }

  @Test
  void aStageWaitingBehindLongTasksIsProbedAtOnce() {
    ElasticPolicy p = policy(0, 100, 0);
    executors(p, 4, 1_000);
    p.stageSubmitted(StageInfo.simple(0, 8), now);
    finishTasks(p, 0, 0, 4, 20_000);
    running(p, 0, 1, 4, 0);
    p.stageSubmitted(StageInfo.simple(1, 50), now);
    // Stage 0's slots are busy for 20 s more; stage 1 would wait for them: one executor measures it.
    assertEquals(5, p.tick(now += 100).target());
  }

  @Test
  void aStageWaitingForSlotsThatFreeWithinTheStartLatencyIsNotProbed() {
    ElasticPolicy p = policy(0, 100, 0);
    executors(p, 4, 2_000);
    p.stageSubmitted(StageInfo.simple(0, 8), now);
    finishTasks(p, 0, 0, 4, 1_000);
    running(p, 0, 1, 4, 900);
    p.stageSubmitted(StageInfo.simple(1, 3), now);
    assertEquals(4, p.tick(now += 100).target(), "stage 0's slots free before a new executor would arrive");
  }

  @Test
  void tasksThatAllRanLongerThanTheStartLatencyGetAnExecutorEachAtOnce() {
    ElasticPolicy p = policy(0, 100, 0);
    executors(p, 10, 1_000);
    p.stageSubmitted(StageInfo.simple(0, 30), now);
    running(p, 0, 1, 10, 0);
    assertEquals(10, p.tick(now += 500).target(), "half a start latency in: could still be short tasks");
    PolicyDecision d = p.tick(now += 600);
    assertEquals(30, d.target(), "none finished after a start latency: 20 waiting tasks, 20 executors");
  }

  @Test
  void longUnmeasuredTasksLeaveTheSlotsThatFreeSoonToTheWaitingTasks() {
    ElasticPolicy p = policy(0, 100, 0);
    executors(p, 14, 1_000);
    p.stageSubmitted(StageInfo.simple(0, 8), now);
    finishTasks(p, 0, 0, 4, 1_000);
    running(p, 0, 1, 4, 900);
    p.stageSubmitted(StageInfo.simple(1, 30), now);
    running(p, 1, 5, 10, 1_500);
    // 20 tasks of stage 1 wait; stage 0's 4 slots free within the start latency and take 4 of them.
    PolicyDecision d = p.tick(now += 100);
    assertEquals(30, d.target(), "14 + 16, below the need of 34");
  }

  @Test
  void idleSlotsThatTasksWaitBesideCountFromWhenTheLocalityWaitReleasesThem() {
    ElasticPolicy shortWait = policy(0, 100, 0, Duration.ofSeconds(60), Duration.ofSeconds(3));
    ElasticPolicy longWait = policy(0, 100, 0, Duration.ofSeconds(60), Duration.ofSeconds(30));
    ElasticPolicy alone = policy(0, 100, 0);
    for (ElasticPolicy p : List.of(shortWait, longWait, alone)) {
      executors(p, 10, 1_000);
      p.stageSubmitted(StageInfo.simple(0, 60), now);
      finishTasks(p, 0, 0, 10, 500);
    }
    // shortWait, longWait: 40 tasks of 0.5 s wait while 9 executors idle (they prefer other hosts).
    for (ElasticPolicy p : List.of(shortWait, longWait)) {
      p.taskStarted(new TaskInfo(0, 0, 10, "10", false), now);
    }
    for (int i = 10; i < 20; i++) {
      alone.taskStarted(new TaskInfo(0, 0, i, String.valueOf(i - 9), false), now);
    }
    int aloneTarget = alone.tick(now + 100).target();
    int shortTarget = shortWait.tick(now + 100).target();
    PolicyDecision longDecision = longWait.tick(now + 100);
    // 40 tasks of 0.5 s: 10 busy executors finish them within 3 start latencies, so the backlog is
    // worth no new executor; but tasks have waited past Spark's backlog timeout, and Spark's rule
    // would add one to the 10 registered: the floor.
    assertEquals(11, aloneTarget, "Spark's first round over the 10 registered");
    assertEquals(11, shortTarget, "after a 3 s wait the 9 idle executors take the 20 s of tasks before new ones would");
    assertTrue(longDecision.target() >= 11 && longDecision.reason().startsWith("the backlog is worth"),
        "a 30 s wait keeps the tasks off the idle executors: the backlog itself is worth executors where they run: "
            + longDecision.reason());
  }

  @Test
  void idleExecutorsGoAfterAStartLatencyOrTwoSecondsAndNeverABusyOne() {
    ElasticPolicy p = policy(1, 10, 1);
    executors(p, 4, 1_500);
    p.stageSubmitted(StageInfo.simple(0, 1), now);
    TaskInfo busy = new TaskInfo(0, 0, 0, "4", false);
    p.taskStarted(busy, now);
    assertEquals(List.of(), p.tick(now += 1_999).remove());
    PolicyDecision d = p.tick(now += 1);
    assertEquals(List.of("1", "2", "3"), d.remove(), "max(1 x 1.5 s, 2 s); the busy one stays, and it is the target");
    assertEquals(1, d.target());
  }

  @Test
  void executorsFreedByAStageStillRunningAreHeldForItsChildren() {
    ElasticPolicy p = policy(0, 10, 0);
    executors(p, 2, 1_500);
    p.stageSubmitted(StageInfo.simple(0, 2), now);
    TaskInfo early = new TaskInfo(0, 0, 0, "1", false);
    TaskInfo straggler = new TaskInfo(0, 0, 1, "2", false);
    p.taskStarted(early, now);
    p.taskStarted(straggler, now);
    now += 1_000;
    p.taskEnded(early, TaskOutcome.SUCCESS, 1_000, now);
    // Idle timeout max(1.5 s, 2 s) = 2 s; executor 1 waits for stage 0's straggler up to 2 x 1.5 s.
    assertEquals(List.of(), p.tick(now += 2_500).remove(), "held while its stage still runs");
    p.taskEnded(straggler, TaskOutcome.SUCCESS, 3_500, now);
    p.stageCompleted(0, 0, now);
    assertEquals(List.of(), p.tick(now += 400).remove(), "the stage just completed: its children may come");
    assertEquals(List.of("1"), p.tick(now += 200).remove(), "never past 2 start latencies idle");
  }

  @Test
  void anExecutorWhoseStageCompletedIsNotHeld() {
    ElasticPolicy p = policy(0, 10, 0);
    executors(p, 2, 1_500);
    p.stageSubmitted(StageInfo.simple(0, 1), now);
    finishTasks(p, 0, 0, 1, 100);
    p.stageCompleted(0, 0, now);
    assertEquals(List.of("1", "2"), p.tick(now += 2_000).remove(), "the usual 2 s idle timeout");
  }

  @Test
  void theUsersIdleTimeoutStaysAnUpperBound() {
    ElasticPolicy p = policy(0, 10, 0, Duration.ofSeconds(1));
    executors(p, 2, 10_000);
    p.stageSubmitted(StageInfo.simple(0, 1), now);
    p.stageCompleted(0, 0, now);
    assertEquals(List.of("1", "2"), p.tick(now += 1_000).remove());
  }

  @Test
  void anIdleExecutorIsKeptThroughTheGapsThisJobShows() {
    ElasticPolicy p = policy(0, 10, 0);
    executors(p, 1, 500);
    for (int stage = 0; stage < 5; stage++) {
      p.stageSubmitted(StageInfo.simple(stage, 1), now);
      finishTasks(p, stage, 0, 1, 100);
      p.stageCompleted(stage, 0, now);
      p.tick(now);
      now += 5_000;
    }
    assertTrue(p.idleTimeout().toMillis() >= 5_000, "kept through the 5 s gaps: " + p.idleTimeout());
  }

  @Test
  void busyExecutorsLowerTheBarForNewOnes() {
    ElasticPolicy idle = policy(0, 10, 0);
    ElasticPolicy busy = policy(0, 10, 0);
    idle.executorAdded("1", 1_000, now);
    busy.executorAdded("1", 1_000, now);
    busy.stageSubmitted(StageInfo.simple(0, 1), now);
    busy.taskStarted(new TaskInfo(0, 0, 0, "1", false), now);
    for (int i = 0; i < 100; i++) {
      idle.tick(now + i * 100L);
      busy.tick(now + i * 100L);
    }
    assertTrue(busy.worthLatencies() < idle.worthLatencies());
  }

  @Test
  void afterARestartItResumesFromTheLiveExecutors() {
    ElasticPolicy p = policy(0, 10, 1);
    executors(p, 5, 1_000);
    p.reset(now);
    assertEquals(5, p.target());
  }

  @Test
  void afterARestartTheSurvivorsStillOnTheirWayCountAndTheCeilingHolds() {
    ElasticPolicy fresh = policy(0, 10, 1);
    fresh.restarted(4, now);
    assertEquals(4, fresh.target(), "survivors that have not re-registered yet are the target");
    ElasticPolicy capped = policy(0, 3, 1);
    capped.restarted(6, now);
    assertEquals(3, capped.target());
  }
}
