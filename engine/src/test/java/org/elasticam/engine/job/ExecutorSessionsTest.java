package org.elasticam.engine.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.elasticam.engine.events.JobEvents;
import org.elasticam.engine.executors.ExecutorRoster;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.time.ManualClock;
import org.elasticam.time.ManualScheduler;
import org.junit.jupiter.api.Test;

/** Registered executors' sessions on a manual scheduler: what ends one, and what the job and the allocator hear. */
class ExecutorSessionsTest {

  private final ManualScheduler time = new ManualScheduler(new ManualClock(1_000_000));
  private final EngineHarness.Allocator allocator = new EngineHarness.Allocator();
  private final List<String> job = new ArrayList<>();
  private final ExecutorRoster roster = new ExecutorRoster();
  private final DriverSettings settings = EngineHarness.settings(0.0, Duration.ZERO);
  private ExecutorSessions sessions;

  ExecutorSessionsTest() {
    sessions = new ExecutorSessions(settings, time, time.clock(), allocator, roster, new JobEvents((e, kv) -> { }),
        new TaskScheduler(2, Duration.ZERO, h -> null), new ExecutorSessions.Job() {
          @Override
          public boolean ending() {
            return false;
          }

          @Override
          public void executorUp(String id, String host, boolean survivor) {
            job.add("up " + id);
          }

          @Override
          public void executorLost(String id, String why, boolean release) {
            job.add("lost " + id + ": " + why);
            sessions.end(id);
          }
        });
  }

  private JobEngine.Session register(String id) {
    allocator.launched.put(id, "c" + id);
    EngineHarness.Link link = new EngineHarness.Link() {
      @Override
      public void end() {
        job.add("ended " + id);
      }
    };
    return sessions.register(link, new Registration(id, "h" + id, "c" + id, 2, 1, "17", "/jdk", List.of(), true,
        Map.of()));
  }

  @Test
  void anExecutorSilentPastTheHeartbeatTimeoutIsLostAndReleasedAsFailed() {
    JobEngine.Session s1 = register("1");
    register("2");
    assertEquals(List.of("up 1", "up 2"), job);
    time.advance(Duration.ofSeconds(4));
    sessions.heard(s1);
    time.advance(Duration.ofMillis(10_001 - 4_000));
    sessions.checkHeartbeats();
    assertEquals(List.of("up 1", "up 2", "lost 2: no heartbeat for 10001 ms (elasticam.executor.heartbeatTimeout)",
        "ended 2"), job, "1 was heard 6 s ago");
    assertEquals(List.of("2: lost: no heartbeat for 10001 ms (elasticam.executor.heartbeatTimeout)"),
        allocator.failed);
    assertEquals(List.of("1"), sessions.ids());
  }

  @Test
  void aClosedSessionLosesItsExecutorAtOnceAndReleasesItAfterTheGraceOnlyIfStillThere() {
    JobEngine.Session s1 = register("1");
    JobEngine.Session s2 = register("2");
    sessions.closed(s1, "stream failed");
    sessions.closed(s1, "stream failed");
    assertEquals(List.of("up 1", "up 2", "lost 1: stream failed", "ended 1"), job, "a second close is no news");
    sessions.closed(s2, "stream failed");
    allocator.launched.remove("2");
    time.advance(Duration.ofSeconds(6));
    assertEquals(List.of("1: lost: stream failed"), allocator.killed, "2's container reported its own end meanwhile");
  }

  @Test
  void aLaunchedExecutorThatDoesNotRegisterInTimeIsGivenUpAndRefusedAfter() {
    allocator.launched.put("3", "c3");
    sessions.launched("3");
    sessions.launched("4");
    time.advance(Duration.ofSeconds(30));
    assertEquals(List.of("3: it did not register within 30s (elasticam.executor.registrationTimeout)"),
        allocator.failed, "4 was never launched: nothing to give up");
    assertTrue(roster.isGone("3"));
    assertEquals(null, register("3"), "too late");
    assertNotNull(register("5"));
  }
}
