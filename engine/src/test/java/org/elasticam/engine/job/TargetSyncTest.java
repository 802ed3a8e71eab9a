package org.elasticam.engine.job;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.elasticam.allocator.dynamic.PolicyDecision;
import org.elasticam.engine.scheduling.Locality;
import org.elasticam.engine.scheduling.TaskAttempt;
import org.elasticam.engine.scheduling.TaskFailureExclusions;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.time.ManualClock;
import org.junit.jupiter.api.Test;

/** What the allocator is asked for, and when it is asked again, on a manual clock. */
class TargetSyncTest {

  private final ManualClock clock = new ManualClock(1_000_000);
  private final List<String> requests = new ArrayList<>();
  private final List<String> events = new ArrayList<>();
  private final TaskScheduler scheduler = new TaskScheduler(4, Duration.ZERO, h -> null);
  private final TargetSync sync = new TargetSync(new AllocatorPort() {
    @Override
    public boolean requestTotalExecutors(int target, int localityAwareTasks, Map<String, Integer> hosts,
        Set<String> excluded) {
      requests.add(target + " " + excluded);
      return true;
    }

    @Override
    public void killExecutor(String executorId, String reason) {}

    @Override
    public void killFailedExecutor(String executorId, String why) {}

    @Override
    public Optional<Launched> launched(String executorId) {
      return Optional.empty();
    }
  }, scheduler, new TaskFailureExclusions(true, 2, Duration.ofSeconds(10)),
      (event, kv) -> events.add(event.wireName() + " " + List.of(kv)), clock);

  private TaskAttempt failedOn(String host) {
    return new TaskAttempt(1, 0, 0, 0, "e-" + host, host, Locality.ANY, clock.nowMs(), "T", Map.of(), false);
  }

  @Test
  void aHostExcludedAfterItsFailuresIsAskedOffUntilTheExclusionExpires() {
    scheduler.executorUp("1", "h1");
    scheduler.executorUp("2", "h2");
    sync.initial(3, "static");
    sync.sync();
    sync.taskFailedOn(failedOn("h1"));
    assertEquals(List.of("3 []"), requests, "one failure excludes nothing");
    sync.taskFailedOn(failedOn("h1"));
    assertEquals(List.of("3 []", "3 [h1]"), requests, "the second does, and the allocator hears of it at once");
    assertEquals("node_excluded [host, h1, until_ts, 1010000, reason, task_failures, failures, 2]", events.get(1));

    clock.advance(Duration.ofSeconds(9));
    sync.syncIfExclusionsChanged();
    assertEquals(2, requests.size(), "nothing changed: nothing sent");
    clock.advance(Duration.ofSeconds(1));
    sync.syncIfExclusionsChanged();
    assertEquals(List.of("3 []", "3 [h1]", "3 []"), requests, "expired: containers may go there again");
    sync.syncIfExclusionsChanged();
    assertEquals(3, requests.size());
  }

  @Test
  void aPolicyDecisionIsSentEveryTickButLoggedOnlyWhenItsTargetMoves() {
    sync.initial(2, "elastic");
    assertEquals(List.of("target_changed [target, 2, previous, 0, reason, initial executors, pending_tasks, 0,"
        + " running_tasks, 0, policy, elastic]"), events);
    sync.decided(new PolicyDecision(2, 2, "", List.of(), 0, Map.of(), 0, 0), "elastic");
    sync.decided(new PolicyDecision(5, 2, "backlog", List.of(), 0, Map.of(), 9, 1), "elastic");
    assertEquals(List.of("2 []", "5 []"), requests);
    assertEquals(5, sync.target());
    assertEquals(2, events.size());
    assertEquals("target_changed [target, 5, previous, 2, reason, backlog, pending_tasks, 9, running_tasks, 1,"
        + " policy, elastic]", events.get(1));
  }
}
