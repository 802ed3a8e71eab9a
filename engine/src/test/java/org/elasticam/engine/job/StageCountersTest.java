package org.elasticam.engine.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.elasticam.api.Counters;
import org.elasticam.api.Stage;
import org.elasticam.engine.job.EngineHarness.Link;
import org.elasticam.report.events.Event;
import org.elasticam.report.events.EventFields;
import org.junit.jupiter.api.Test;

/**
 * What the event log says a stage counted: {@code stage_completed}'s counters are the sums over one
 * successful attempt per task — not a failed attempt's, and a task run again after its map output
 * was lost counts once, with its new attempt's figures. {@code task_end} carries each attempt's own.
 */
class StageCountersTest {

  private final EngineHarness h = new EngineHarness();

  /** Three maps writing two partitions, then two reducers. */
  private JobEngine engine() {
    List<Stage> stages = List.of(Stage.builder(0, "map", "T").tasks(3).writesShuffle(2).build(),
        Stage.builder(1, "reduce", "T").parents(0).tasks(2).build());
    JobEngine e = h.engine(EngineHarness.settings(0.0, Duration.ZERO), new DagPlan(stages));
    e.start();
    return e;
  }

  private static Map<String, Long> wrote(long records, long bytes) {
    return Map.of(Counters.SHUFFLE_RECORDS_WRITTEN, records, Counters.SHUFFLE_BYTES_WRITTEN, bytes, "user.rows",
        records * 2);
  }

  private static void report(JobEngine e, JobEngine.Session s, TaskLaunch t, TaskReport.State state,
      Map<String, Long> counters) {
    e.taskReported(s, new TaskReport(t.attempt().taskId(), state, state == TaskReport.State.FAILED
        ? "java.lang.IllegalStateException: boom" : "", 7337, null, counters));
  }

  /** Reports every map attempt launched, and those launched meanwhile, as succeeded with counters of its index. */
  private static void succeedMaps(JobEngine e, JobEngine.Session s, Link link, long recordsPerIndex) {
    for (TaskLaunch t; (t = link.launched.stream().filter(l -> l.attempt().stageId() == 0).findFirst()
        .orElse(null)) != null; ) {
      link.launched.remove(t);
      long n = recordsPerIndex * (t.attempt().index() + 1);
      report(e, s, t, TaskReport.State.SUCCEEDED, wrote(n, 10 * n));
    }
  }

  @SuppressWarnings("unchecked")
  private List<Map<String, Long>> stageCounters(int stageId) {
    return h.named(Event.STAGE_COMPLETED).stream().filter(w -> w.field(EventFields.STAGE_ID).equals(stageId))
        .map(w -> (Map<String, Long>) w.field(EventFields.COUNTERS)).toList();
  }

  @Test
  void aStageSumsItsSuccessfulAttemptsAndARerunTaskCountsOnce() {
    JobEngine e = engine();
    Link l1 = new Link();
    JobEngine.Session s1 = h.register(e, "1", l1);

    // Map 0's first attempt fails, having counted: it counts nothing in the stage, and its end says nothing.
    TaskLaunch first = l1.launched.stream().filter(t -> t.attempt().index() == 0).findFirst().orElseThrow();
    l1.launched.remove(first);
    report(e, s1, first, TaskReport.State.FAILED, wrote(999, 9990));
    succeedMaps(e, s1, l1, 100);
    // Maps 0, 1, 2 counted 100, 200 and 300 records.
    assertEquals(List.of(Map.of(Counters.SHUFFLE_RECORDS_WRITTEN, 600L, Counters.SHUFFLE_BYTES_WRITTEN, 6000L,
        "user.rows", 1200L)), stageCounters(0));
    assertEquals(wrote(200, 2000), h.named(Event.TASK_END).stream()
        .filter(w -> w.field(EventFields.TASK).equals(1)).findFirst().orElseThrow().field(EventFields.COUNTERS),
        "an attempt's end carries its own counters");

    // The reducers lose map 1's output; it runs again, counting 250 this time, and the stage completes again.
    List<TaskLaunch> reducers = List.copyOf(l1.launched);
    l1.launched.clear();
    assertEquals(2, reducers.size());
    for (TaskLaunch t : reducers) {
      e.taskReported(s1, new TaskReport(t.attempt().taskId(), TaskReport.State.FETCH_FAILED, "", 0,
          new TaskReport.FetchFailure(0, "1", List.of(1), "connection refused")));
    }
    assertEquals(List.of(1), l1.launched.stream().map(t -> t.attempt().index()).toList(), "map 1 again");
    TaskLaunch rerun = l1.launched.remove(0);
    report(e, s1, rerun, TaskReport.State.SUCCEEDED, wrote(250, 2500));
    assertEquals(Map.of(Counters.SHUFFLE_RECORDS_WRITTEN, 650L, Counters.SHUFFLE_BYTES_WRITTEN, 6500L, "user.rows",
        1300L), stageCounters(0).get(1), "map 1 once, by its new attempt");

    while (!l1.launched.isEmpty()) {
      report(e, s1, l1.launched.remove(0), TaskReport.State.SUCCEEDED, Map.of(Counters.SHUFFLE_RECORDS_READ, 325L));
    }
    assertEquals(List.of(Map.of(Counters.SHUFFLE_RECORDS_READ, 650L)), stageCounters(1));
    assertEquals(Outcome.Status.SUCCEEDED, h.outcome.status(), h.outcome.diagnostics());
  }

  @Test
  void attemptsThatCountNothingLeaveTheEventsAsTheyWere() {
    JobEngine e = engine();
    Link l1 = new Link();
    JobEngine.Session s1 = h.register(e, "1", l1);
    while (!l1.launched.isEmpty()) {
      EngineHarness.succeedAll(e, s1, l1);
    }
    assertEquals(Outcome.Status.SUCCEEDED, h.outcome.status());
    h.named(Event.TASK_END).forEach(w -> assertNull(w.field(EventFields.COUNTERS)));
    h.named(Event.STAGE_COMPLETED).forEach(w -> assertNull(w.field(EventFields.COUNTERS)));
  }
}
