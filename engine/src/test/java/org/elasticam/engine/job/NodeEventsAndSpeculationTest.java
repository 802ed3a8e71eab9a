package org.elasticam.engine.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.report.events.Event;
import org.elasticam.report.events.EventFields;
import org.junit.jupiter.api.Test;

/**
 * What the engine does when the ResourceManager reports on nodes (lost, decommissioning,
 * recommissioned, about to preempt) and when a task runs slow: on a manual scheduler, no threads.
 */
class NodeEventsAndSpeculationTest {

  private final EngineHarness h = new EngineHarness();
  /** Schedules at once: no wait for the initial executors. */
  private final DriverSettings settings = EngineHarness.settings(0.0, Duration.ofSeconds(30));

  private JobEngine started(int tasks) {
    JobEngine e = h.engine(settings, EngineHarness.chain(1, tasks));
    e.start();
    return e;
  }

  @Test
  void aLostNodeLosesItsExecutorsAtOnceAndTheirTasksGoBackToPending() {
    JobEngine e = started(2);
    EngineHarness.Link link = new EngineHarness.Link();
    h.register(e, "1", link);
    assertEquals(2, e.tasksRunning());

    e.nodeLost("h1", "LOST");

    assertEquals(0, e.registeredExecutors());
    assertEquals(2, e.tasksPending(), "back to pending without waiting for a heartbeat timeout");
    assertTrue(link.ended, "its session ends");
    assertEquals(List.of("1: lost: its node h1 is LOST"), h.allocator.killed);
    List<EngineHarness.Written> ends = h.named(Event.TASK_END);
    assertEquals(2, ends.size(), "each attempt that ran there ends in the log");
    assertTrue(ends.stream().allMatch(w -> "KILLED".equals(w.field(EventFields.STATUS))), ends.toString());
  }

  @Test
  void aDecommissioningNodeFinishesItsRunningTasksAndTakesNoMore() {
    JobEngine e = started(3);
    EngineHarness.Link link = new EngineHarness.Link();
    JobEngine.Session s = h.register(e, "1", link);
    assertEquals(2, e.tasksRunning(), "two cores");

    e.nodeDecommissioning("h1", "it leaves within 60 s");
    assertEquals(List.of(), h.allocator.killed, "busy: it stays until its tasks end");
    assertEquals(List.of(), link.killed, "its running tasks are not killed");

    assertEquals(2, EngineHarness.succeedAll(e, s, link));
    assertEquals(List.of(), link.launched, "the third task never started there");
    assertEquals(1, e.tasksPending());
    assertEquals(0, e.registeredExecutors());
    assertEquals(List.of("1: " + JobEngine.DECOMMISSIONING), h.allocator.killed);
    assertTrue(h.named(Event.TASK_END).stream().allMatch(w -> "SUCCESS".equals(w.field(EventFields.STATUS))));
  }

  @Test
  void aNodeRecommissionedBeforeItsTasksEndKeepsItsExecutor() {
    JobEngine e = started(3);
    EngineHarness.Link link = new EngineHarness.Link();
    JobEngine.Session s = h.register(e, "1", link);
    e.nodeDecommissioning("h1", "it leaves within 60 s");
    e.nodeRecommissioned("h1");

    assertEquals(2, EngineHarness.succeedAll(e, s, link));
    assertEquals(1, EngineHarness.succeedAll(e, s, link), "the third task ran on the same executor");
    assertEquals(Outcome.Status.SUCCEEDED, h.outcome.status());
    assertEquals(List.of(), h.allocator.killed, "it was never released");
    assertEquals(1, h.named(Event.NODE_RECOMMISSIONED).size());
  }

  @Test
  void beforeAPreemptionTheIdleExecutorIsGivenBackAndTheBusyOneKeepsItsTask() {
    JobEngine e = started(1);
    EngineHarness.Link busy = new EngineHarness.Link();
    EngineHarness.Link idle = new EngineHarness.Link();
    h.register(e, "1", busy);
    h.register(e, "2", idle);
    assertEquals(1, busy.launched.size());

    e.preemptionRequested(List.of(), 1);

    assertEquals(List.of("2: " + JobEngine.GIVEN_BACK + " before it preempts it"), h.allocator.killed);
    assertEquals(1, e.tasksRunning(), "the running task was not touched");
    assertEquals(List.of(), busy.killed);
    assertEquals(1, e.registeredExecutors());
  }

  @Test
  void aContainerNamedForPreemptionBeforeItsExecutorRegisteredIsGivenBackAndItsExecutorRefused() {
    JobEngine e = started(1);
    h.register(e, "1", new EngineHarness.Link());
    h.allocator.launched.put("2", "c2");

    e.preemptionRequested(List.of("2"), 0);

    assertEquals(List.of("2: " + JobEngine.GIVEN_BACK + " before it preempts it (its executor had not registered)"),
        h.allocator.killed, "given back, not left for the ResourceManager to kill");
    assertEquals(1, e.tasksRunning(), "the running task was not touched");
    h.allocator.launched.put("2", "c2");
    EngineHarness.Link late = new EngineHarness.Link();
    assertNull(h.register(e, "2", late));
    assertNotNull(late.refused, "registering after it was given back is refused");
  }

  /**
   * Four 2-core executors' worth of tasks on two executors; three end after a second, the fourth
   * runs on. Past 1.5 x the median of the finished ones, checked every 100 ms, it gets a copy on
   * the other host; the copy wins, the original is killed, and the task counts once.
   */
  @Test
  void aSlowTaskGetsACopyOnAnotherHostAndTheFirstToSucceedWins() {
    DriverSettings speculating = new DriverSettings("app_1", 2, 1, 2, Duration.ZERO, Duration.ofMillis(200),
        Duration.ofSeconds(10), Duration.ofSeconds(30), 0.0, Duration.ofSeconds(30), Duration.ofSeconds(6),
        DriverSettings.ExcludeOnFailure.OFF, new TaskScheduler.Speculation(true, 1.5, 0.75, 100),
        Duration.ofMillis(100), 3);
    JobEngine e = h.engine(speculating, EngineHarness.chain(1, 4));
    e.start();
    EngineHarness.Link one = new EngineHarness.Link();
    EngineHarness.Link two = new EngineHarness.Link();
    JobEngine.Session s1 = h.register(e, "1", one);
    JobEngine.Session s2 = h.register(e, "2", two);
    assertEquals(2, one.launched.size());
    assertEquals(2, two.launched.size());

    h.time.advance(Duration.ofSeconds(1));
    TaskLaunch slow = one.launched.remove(1);
    EngineHarness.succeedAll(e, s1, one);
    EngineHarness.succeedAll(e, s2, two);
    assertTrue(h.named(Event.TASK_SPECULATED).isEmpty());

    h.time.advance(Duration.ofMillis(400));
    assertTrue(h.named(Event.TASK_SPECULATED).isEmpty(), "1.4 s is not past 1.5 x the 1 s median");
    h.time.advance(Duration.ofMillis(200));
    assertEquals(1, h.named(Event.TASK_SPECULATED).size());
    assertEquals(1, two.launched.size(), "the copy runs on the other host");
    TaskLaunch copy = two.launched.get(0);
    assertEquals(slow.attempt().index(), copy.attempt().index());
    assertTrue(copy.attempt().speculative());

    EngineHarness.succeedAll(e, s2, two);
    assertEquals(List.of(slow.attempt().taskId()), one.killed, "the original is killed");
    e.taskReported(s1, new TaskReport(slow.attempt().taskId(), TaskReport.State.KILLED, "", 0, null));
    assertEquals(Outcome.Status.SUCCEEDED, h.outcome.status());
    assertEquals(4, e.tasksDone(), "the task counts once");
    assertFalse(h.named(Event.TASK_END).stream().anyMatch(w -> "FAILED".equals(w.field(EventFields.STATUS))));
  }
}
