package org.elasticam.engine.job;

import static org.elasticam.report.events.EventFields.FAILURES;
import static org.elasticam.report.events.EventFields.HOST;
import static org.elasticam.report.events.EventFields.PENDING_TASKS;
import static org.elasticam.report.events.EventFields.POLICY;
import static org.elasticam.report.events.EventFields.PREVIOUS;
import static org.elasticam.report.events.EventFields.REASON;
import static org.elasticam.report.events.EventFields.RUNNING_TASKS;
import static org.elasticam.report.events.EventFields.TARGET;
import static org.elasticam.report.events.EventFields.UNTIL_TS;

import java.time.Instant;
import java.util.Set;
import org.elasticam.allocator.dynamic.PolicyDecision;
import org.elasticam.allocator.streaming.StreamingDecision;
import org.elasticam.engine.scheduling.TaskAttempt;
import org.elasticam.engine.scheduling.TaskFailureExclusions;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.report.events.Event;
import org.elasticam.report.events.EventWriter;
import org.elasticam.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the allocator is asked for: the executor target, with the locality hints of the pending
 * tasks and the nodes the job excluded after task failures there. The whole request goes again
 * whenever any part of it may have changed; the allocator itself ignores a request that did not.
 */
final class TargetSync {

  // JobEngine's logger: these lines were the engine's, and log settings name it.
  private static final Logger LOG = LoggerFactory.getLogger(JobEngine.class);

  private final AllocatorPort allocator;
  private final TaskScheduler scheduler;
  private final TaskFailureExclusions exclusions;
  private final EventWriter events;
  private final Clock clock;
  private int target;
  /** The exclusions the allocator was last told, to tell it again when one expires. */
  private Set<String> exclusionsSent = Set.of();

  TargetSync(AllocatorPort allocator, TaskScheduler scheduler, TaskFailureExclusions exclusions, EventWriter events,
      Clock clock) {
    this.allocator = allocator;
    this.scheduler = scheduler;
    this.exclusions = exclusions;
    this.events = events;
    this.clock = clock;
  }

  int target() {
    return target;
  }

  /** The job's first target, as its allocation policy (or executor.instances) sets it; not yet sent. */
  void initial(int target, String policy) {
    this.target = target;
    events.write(Event.TARGET_CHANGED, TARGET, target, PREVIOUS, 0, REASON, policy.equals("static")
        ? "static allocation (executor.instances)" : "initial executors", PENDING_TASKS, 0, RUNNING_TASKS, 0,
        POLICY, policy);
  }

  void sync() {
    exclusionsSent = exclusions.excluded(clock.nowMs());
    allocator.requestTotalExecutors(target, scheduler.localityAwareTasks(), scheduler.hostToLocalTaskCount(),
        exclusionsSent);
  }

  /** The hosts excluded as of the last request. */
  Set<String> excluded() {
    return exclusionsSent;
  }

  /** Every tick: an exclusion that expired since the last request lets YARN place containers there again. */
  void syncIfExclusionsChanged() {
    if (!exclusions.excluded(clock.nowMs()).equals(exclusionsSent)) {
      sync();
    }
  }

  /** A task failed on its host: past elasticam.excludeOnFailure.maxFailedTasksPerNode, the job leaves the host. */
  void taskFailedOn(TaskAttempt a) {
    exclusions.taskFailed(a.host(), clock.nowMs(), scheduler.hostsWithExecutors()).ifPresent(x -> {
      LOG.info("Excluding {} until {}: {} tasks failed there (elasticam.excludeOnFailure.maxFailedTasksPerNode);"
          + " no task runs there and YARN is asked for no container there", x.host(),
          Instant.ofEpochMilli(x.untilMs()), x.failures());
      events.write(Event.NODE_EXCLUDED, HOST, x.host(), UNTIL_TS, x.untilMs(), REASON, "task_failures",
          FAILURES, x.failures());
      sync();
    });
  }

  /** A batch policy's tick: its target, if it moved, and the request with it. */
  void decided(PolicyDecision d, String policy) {
    if (d.targetChanged()) {
      target = d.target();
      LOG.info("Executor target {} -> {}: {} ({} pending, {} running tasks)", d.previousTarget(), d.target(),
          d.reason(), d.pendingTasks(), d.runningTasks());
      events.write(Event.TARGET_CHANGED, TARGET, d.target(), PREVIOUS, d.previousTarget(), REASON, d.reason(),
          PENDING_TASKS, d.pendingTasks(), RUNNING_TASKS, d.runningTasks(), POLICY, policy);
    }
    sync();
  }

  /** A streaming policy's decision: its target, if it moved, and the request with it. */
  void decided(StreamingDecision d, String policy) {
    if (d.targetChanged()) {
      target = d.target();
      LOG.info("Executor target {} -> {}: {}", d.previousTarget(), d.target(), d.reason());
      events.write(Event.TARGET_CHANGED, TARGET, d.target(), PREVIOUS, d.previousTarget(), REASON, d.reason(),
          PENDING_TASKS, scheduler.pendingTasks(), RUNNING_TASKS, scheduler.runningTasks(), POLICY, policy);
    }
    sync();
  }
}
