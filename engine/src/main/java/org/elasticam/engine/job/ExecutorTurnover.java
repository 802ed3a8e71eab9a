package org.elasticam.engine.job;

import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.elasticam.allocator.dynamic.PolicyDecision;
import org.elasticam.allocator.streaming.StreamingDecision;
import org.elasticam.engine.allocation.AllocationFeedback;
import org.elasticam.engine.events.JobEvents;
import org.elasticam.engine.executors.ExecutorRoster;
import org.elasticam.engine.lineage.MapOutputs;
import org.elasticam.engine.scheduling.TaskAttempt;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an executor's arrival and departure mean for the job: its slots for the scheduler, its
 * running tasks back to pending, the output only it served lost, the policies told; and the
 * executors a policy no longer wants, removed at once when idle or retired until they are.
 */
final class ExecutorTurnover {

  // JobEngine's logger: these lines were the engine's, and log settings name it.
  private static final Logger LOG = LoggerFactory.getLogger(JobEngine.class);

  private final TaskScheduler scheduler;
  private final AllocatorPort allocator;
  private final ExecutorRoster roster;
  private final ExecutorSessions sessions;
  private final TaskLaunches launches;
  private final MapOutputs mapOutputs;
  /** The dynamic-allocation policy's feedback, or null for static allocation. */
  private final AllocationFeedback dynamic;
  /** The stream's batches, or null for a batch job. */
  private final StreamingRun streaming;
  private final JobEvents jobEvents;
  private final Clock clock;
  private final BooleanSupplier ended;

  ExecutorTurnover(TaskScheduler scheduler, AllocatorPort allocator, ExecutorRoster roster, ExecutorSessions sessions,
      TaskLaunches launches, MapOutputs mapOutputs, AllocationFeedback dynamic, StreamingRun streaming,
      JobEvents jobEvents, Clock clock, BooleanSupplier ended) {
    this.scheduler = scheduler;
    this.allocator = allocator;
    this.roster = roster;
    this.sessions = sessions;
    this.launches = launches;
    this.mapOutputs = mapOutputs;
    this.dynamic = dynamic;
    this.streaming = streaming;
    this.jobEvents = jobEvents;
    this.clock = clock;
    this.ended = ended;
  }

  /** Admitted, before it is told it registered: it may take tasks. */
  void up(String id, String host, boolean survivor) {
    scheduler.executorUp(id, host);
    if (dynamic != null) {
      // A survivor's start says nothing about how long executors take to start now.
      long asked = survivor ? -1 : allocator.launched(id).map(AllocatorPort.Launched::askedAtMs).orElse(-1L);
      dynamic.executorAdded(id, asked < 0 ? -1 : clock.nowMs() - asked, clock.nowMs());
    }
    if (streaming != null) {
      streaming.executorAdded(id, clock.nowMs());
    }
  }

  /** Gone, whatever the cause; {@code release}: its container too, unless we meant it to go. */
  void lost(String id, String why, boolean release) {
    sessions.end(id);
    List<TaskAttempt> requeued = scheduler.executorLost(id);
    // Each attempt that was running there ends with it; its task runs again as a new attempt.
    requeued.forEach(a -> jobEvents.taskEnded(a, clock.nowMs() - a.startMs(), JobEvents.Status.KILLED, false));
    Set<Integer> lostShuffles = mapOutputs.executorLost(id);
    if (!lostShuffles.isEmpty()) {
      LOG.info("Executor {} took its shuffle output of stage(s) {} with it (no shuffle service serves it)", id,
          lostShuffles);
    }
    if (dynamic != null) {
      dynamic.tasksLost(requeued, clock.nowMs());
      dynamic.executorRemoved(id, clock.nowMs());
    }
    boolean expected = roster.ended(id);
    if (streaming != null) {
      streaming.executorRemoved(id, clock.nowMs());
    }
    if (!ended.getAsBoolean() && !expected) {
      LOG.warn("Lost executor {}: {}; {} running task(s) go back to pending", id, why, requeued.size());
      if (release) {
        allocator.killExecutor(id, "lost: " + why);
      }
      launches.revive();
    }
  }

  /** The batch policy's idle executors to remove: each one still idle goes now. */
  void removeIdle(PolicyDecision d) {
    for (String id : d.remove()) {
      if (sessions.isRegistered(id) && scheduler.runningOn(id) == 0) {
        String why = mapOutputs.wroteServedOutput(id)
            ? "idle: no task past its idle deadline; its shuffle output stays served by its node's shuffle service"
            : "idle: no task past its idle deadline";
        LOG.info("Removing executor {}: {}", id, why);
        remove(id, why, "removed: idle");
      }
    }
  }

  /**
   * Executors on a node the job excluded after task failures get no task there until the exclusion
   * expires, yet each holds a container the target counts: while tasks wait, they would wait beside
   * it. Each goes once it runs nothing, so the allocator asks for its replacement on another node,
   * unless it alone serves shuffle output (no shuffle service has it) whose files are not yet
   * deleted (they are once every stage that reads them completed): removing it would run those
   * maps again. An executor that has not yet registered there goes when it registers.
   */
  void leaveExcludedNodes(Set<String> excludedHosts) {
    if (excludedHosts.isEmpty()) {
      return;
    }
    for (JobEngine.Session s : List.copyOf(sessions.all())) {
      String id = s.executorId;
      if (excludedHosts.contains(s.host) && scheduler.runningOn(id) == 0 && !mapOutputs.holdsUnservedOutput(id)) {
        String why = "its node " + s.host + " is excluded after task failures there: it can run no task";
        LOG.info("Removing executor {}: {}; its container goes back, so that a replacement can start elsewhere", id,
            why);
        remove(id, why, "removed: its node is excluded");
      }
    }
  }

  /** An idle executor we no longer want: its container goes back, and its loss is one we meant. */
  private void remove(String id, String why, String lostWhy) {
    roster.removing(id);
    allocator.killExecutor(id, why);
    lost(id, lostWhy, false);
  }

  /** The streaming policy's executors to remove: they stop getting tasks and go once idle. */
  void retire(StreamingDecision d) {
    for (String id : d.remove()) {
      if (sessions.isRegistered(id) && roster.retire(id, "removed by the streaming policy")) {
        LOG.info("Retiring executor {}: {}", id, d.reason());
        sessions.retireIfIdle(id);
      }
    }
  }
}
