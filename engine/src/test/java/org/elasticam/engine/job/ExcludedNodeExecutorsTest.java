package org.elasticam.engine.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.elasticam.api.Stage;
import org.elasticam.engine.job.EngineHarness.Link;
import org.elasticam.report.events.Event;
import org.junit.jupiter.api.Test;

/**
 * Executors on a node the job excluded after task failures: they get no task there, so each goes
 * once it runs nothing and its output is safe, and the allocator can put its replacement elsewhere.
 */
class ExcludedNodeExecutorsTest {

  private final EngineHarness h = new EngineHarness();

  /** Two static executors, 4 attempts a task, a node excluded after 2 failed tasks there for an hour. */
  private static DriverSettings excluding() {
    return new DriverSettings("app_1", 2, 1, 4, Duration.ZERO, Duration.ofMillis(200), Duration.ofSeconds(10),
        Duration.ofSeconds(30), 0.0, Duration.ofSeconds(30), Duration.ofSeconds(6),
        new DriverSettings.ExcludeOnFailure(true, 2, Duration.ofHours(1)));
  }

  private static void fail(JobEngine e, JobEngine.Session s, Link link) {
    TaskLaunch t = link.launched.remove(0);
    e.taskReported(s, new TaskReport(t.attempt().taskId(), TaskReport.State.FAILED,
        "java.lang.IllegalStateException: this node is bad", 0, null));
  }

  private static final String GONE = ": its node h1 is excluded after task failures there: it can run no task";

  @Test
  void anExecutorOnAnExcludedNodeGoesOnceItsRunningTaskEnds() {
    JobEngine e = h.engine(excluding(), EngineHarness.chain(1, 8));
    e.start();
    Link bad = new Link();
    Link good = new Link();
    JobEngine.Session s1 = h.register(e, "1", bad);
    JobEngine.Session s2 = h.register(e, "2", good);
    assertEquals(2, bad.launched.size());

    fail(e, s1, bad);
    assertEquals(2, bad.launched.size(), "not excluded after one failure: its free slot took another task");
    fail(e, s1, bad);
    assertEquals(Set.of("h1"), h.allocator.excluded, "the second failure excluded h1");
    assertEquals(1, bad.launched.size(), "the task it was given before the exclusion still runs there");

    h.time.advance(Duration.ofMillis(500));
    assertTrue(h.allocator.killed.isEmpty(), "an executor running a task stays: " + h.allocator.killed);
    EngineHarness.succeedAll(e, s1, bad);
    assertTrue(bad.launched.isEmpty(), "no task starts on the excluded node");
    h.time.advance(Duration.ofMillis(100));
    assertEquals(List.of("1" + GONE), h.allocator.killed, "idle on an excluded node: its container goes back");
    assertEquals(2, h.allocator.target, "the target stays, so the allocator asks for a replacement");

    while (!good.launched.isEmpty()) {
      EngineHarness.succeedAll(e, s2, good);
    }
    assertEquals(Outcome.Status.SUCCEEDED, h.outcome.status(), "the job ends on the other node");
  }

  /** Executor 1 registers from h1, whose node has no shuffle service. */
  private JobEngine.Session registerWithoutShuffleService(JobEngine e, Link bad) {
    h.allocator.launched.put("1", "c1");
    // No shuffle service on its node: the map output it writes lives only as long as it does.
    return e.register(bad, new Registration("1", "h1", "c1", 2, 100, "17", "/jdk", List.of("/d"), false, Map.of()));
  }

  /**
   * Executor 1 writes one map's output, then fails two tasks, which excludes h1; the tasks it was
   * given meanwhile succeed, so it ends idle.
   */
  private void writeAMapThenFailTwice(JobEngine e, JobEngine.Session s1, Link bad) {
    TaskLaunch map = bad.launched.remove(0);
    e.taskReported(s1, new TaskReport(map.attempt().taskId(), TaskReport.State.SUCCEEDED, "", 7337, null));
    fail(e, s1, bad);
    fail(e, s1, bad);
    assertEquals(Set.of("h1"), h.allocator.excluded);
    EngineHarness.succeedAll(e, s1, bad);
    assertTrue(bad.launched.isEmpty(), "idle: no task starts on the excluded node");
  }

  @Test
  void anExecutorThatAloneServesWantedShuffleOutputStaysOnItsExcludedNode() {
    JobEngine e = h.engine(excluding(), new DagPlan(List.of(
        Stage.builder(0, "map", "T").tasks(6).writesShuffle(4).build(),
        Stage.builder(1, "reduce", "T").tasks(4).parents(0).build())));
    e.start();
    Link bad = new Link();
    JobEngine.Session s1 = registerWithoutShuffleService(e, bad);
    h.register(e, "2", new Link());
    writeAMapThenFailTwice(e, s1, bad);

    h.time.advance(Duration.ofSeconds(1));
    assertTrue(h.allocator.killed.isEmpty(), "removing it would lose map output stage 1 reads: "
        + h.allocator.killed);
  }

  @Test
  void itGoesOnceEveryStageThatReadsItsOutputCompleted() {
    JobEngine e = h.engine(excluding(), new DagPlan(List.of(
        Stage.builder(0, "map", "T").tasks(6).writesShuffle(4).build(),
        Stage.builder(1, "reduce", "T").tasks(4).parents(0).build(),
        Stage.builder(2, "after", "T").tasks(4).parents(1).build())));
    e.start();
    Link bad = new Link();
    Link good = new Link();
    JobEngine.Session s1 = registerWithoutShuffleService(e, bad);
    JobEngine.Session s2 = h.register(e, "2", good);
    writeAMapThenFailTwice(e, s1, bad);
    while (!good.launched.isEmpty() && h.named(Event.STAGE_COMPLETED).size() < 2) {
      h.time.advance(Duration.ofMillis(100));
      assertTrue(h.allocator.killed.isEmpty(), "kept while stage 1 may read its output: " + h.allocator.killed);
      TaskLaunch t = good.launched.remove(0);
      e.taskReported(s2, new TaskReport(t.attempt().taskId(), TaskReport.State.SUCCEEDED, "", 7337, null));
    }
    assertEquals(2, h.named(Event.STAGE_COMPLETED).size(), "map and reduce done");
    h.time.advance(Duration.ofMillis(100));
    assertEquals(List.of("1" + GONE), h.allocator.killed, "its shuffle's files were deleted: nothing left to keep");
  }

  @Test
  void withoutExclusionsNoExecutorIsRemovedForItsFailures() {
    DriverSettings off = EngineHarness.settings(0.0, Duration.ofSeconds(30));
    JobEngine e = h.engine(off, EngineHarness.chain(1, 8));
    e.start();
    Link bad = new Link();
    JobEngine.Session s1 = h.register(e, "1", bad);
    h.register(e, "2", new Link());
    fail(e, s1, bad);
    h.time.advance(Duration.ofSeconds(1));
    assertTrue(h.allocator.excluded.isEmpty());
    assertTrue(h.allocator.killed.isEmpty());
  }
}
