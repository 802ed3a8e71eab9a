package org.elasticam.engine.job;

import static org.elasticam.report.events.EventFields.ATTEMPT;
import static org.elasticam.report.events.EventFields.COUNTERS;
import static org.elasticam.report.events.EventFields.ERROR;
import static org.elasticam.report.events.EventFields.EXECUTOR_ID;
import static org.elasticam.report.events.EventFields.RUN_MS;
import static org.elasticam.report.events.EventFields.SHUFFLE_OUTPUT;
import static org.elasticam.report.events.EventFields.STAGE_ID;
import static org.elasticam.report.events.EventFields.SUPERSEDED;
import static org.elasticam.report.events.EventFields.TASK;
import static org.elasticam.report.events.EventFields.THRESHOLD_MS;
import static org.elasticam.report.events.EventFields.WON_OVER_ATTEMPTS;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.elasticam.engine.allocation.AllocationFeedback;
import org.elasticam.engine.events.JobEvents;
import org.elasticam.engine.job.JobEngine.Session;
import org.elasticam.engine.lineage.MapOutputs;
import org.elasticam.engine.lineage.StageLineage;
import org.elasticam.engine.recovery.JobJournal;
import org.elasticam.engine.scheduling.TaskAttempt;
import org.elasticam.engine.scheduling.TaskErrors;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.report.events.Event;
import org.elasticam.report.events.EventWriter;
import org.elasticam.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Running task attempts to their end: what an executor reports becomes the attempt's end for the
 * scheduler, the policy, the map output it wrote, the journal and the event log, and sets off what
 * follows (the job's failure, lost input run again, the stage's completion). Also who of two
 * attempts may commit, and which slow tasks get a copy.
 */
final class TaskEnds {

  // JobEngine's logger: these lines were the engine's, and log settings name it.
  private static final Logger LOG = LoggerFactory.getLogger(JobEngine.class);

  /** The job's side of a task's end. */
  interface Job {
    boolean ending();

    void finish(Outcome o);

    void stageCompleted(int stageId);
  }

  private final DriverSettings settings;
  private final TaskScheduler scheduler;
  /** The dynamic-allocation policy's feedback, or null for static allocation. */
  private final AllocationFeedback dynamic;
  private final StageLineage lineage;
  private final MapOutputs mapOutputs;
  private final ExecutorSessions sessions;
  private final TaskLaunches launches;
  private final TargetSync target;
  private final OutputRecovery outputs;
  private final EventWriter events;
  private final JobEvents jobEvents;
  private final Clock clock;
  private final Job job;
  /** The stream's batches, or null for a batch job. */
  private StreamingRun streaming;
  private JobJournal journal = JobJournal.NONE;
  private long lastSpeculationCheckMs;

  TaskEnds(DriverSettings settings, TaskScheduler scheduler, AllocationFeedback dynamic, StageLineage lineage,
      ExecutorSessions sessions, TaskLaunches launches, TargetSync target, OutputRecovery outputs, EventWriter events,
      JobEvents jobEvents, Clock clock, Job job) {
    this.settings = settings;
    this.scheduler = scheduler;
    this.dynamic = dynamic;
    this.lineage = lineage;
    this.mapOutputs = lineage.outputs();
    this.sessions = sessions;
    this.launches = launches;
    this.target = target;
    this.outputs = outputs;
    this.events = events;
    this.jobEvents = jobEvents;
    this.clock = clock;
    this.job = job;
  }

  /** A streaming job's failed stage may fail only its batch; and its tasks are journaled by batch, not here. */
  void streaming(StreamingRun run) {
    this.streaming = run;
  }

  void recordTo(JobJournal j) {
    this.journal = j;
  }

  /** See {@link JobEngine#commitRequested}. */
  void commitRequested(Session session, long taskId) {
    boolean own = scheduler.runningAttempt(taskId).map(a -> a.executorId().equals(session.executorId)).orElse(false);
    boolean allowed = own && scheduler.mayCommit(taskId);
    scheduler.runningAttempt(taskId).ifPresent(a -> {
      if (allowed) {
        LOG.debug("Attempt {} of task {} of stage {} may commit", a.attempt(), a.index(), a.stageId());
      } else {
        LOG.info("Attempt {} of task {} of stage {} on executor {} may not commit: another attempt does",
            a.attempt(), a.index(), a.stageId(), a.executorId());
      }
    });
    session.link.commitAnswer(taskId, allowed);
  }

  /** Every elasticam.speculation.interval: slow tasks found get a copy on another host when a slot frees. */
  void speculate() {
    long now = clock.nowMs();
    if (!settings.speculation().enabled() || now - lastSpeculationCheckMs < settings.speculationInterval().toMillis()) {
      return;
    }
    lastSpeculationCheckMs = now;
    for (TaskScheduler.SlowTask slow : scheduler.findSlowTasks(now)) {
      TaskAttempt a = slow.attempt();
      LOG.info("Task {} of stage {} (attempt {} on {}) has run {} ms, over its stage's {} ms"
          + " (elasticam.speculation.multiplier x the median of its finished tasks): a copy runs on another host",
          a.index(), a.stageId(), a.attempt(), a.host(), slow.runMs(), slow.thresholdMs());
      events.write(Event.TASK_SPECULATED, STAGE_ID, a.stageId(), TASK, a.index(), ATTEMPT, a.attempt(),
          EXECUTOR_ID, a.executorId(), RUN_MS, slow.runMs(), THRESHOLD_MS, slow.thresholdMs());
      if (dynamic != null) {
        dynamic.speculativeTaskSubmitted(a, now);
      }
    }
  }

  /** See {@link JobEngine#taskReported}. */
  void reported(Session session, TaskReport u) {
    if (u.state() == TaskReport.State.RUNNING) {
      return;
    }
    boolean ok = u.state() == TaskReport.State.SUCCEEDED;
    boolean fetchFailed = u.state() == TaskReport.State.FETCH_FAILED;
    // A fetch failure is lost input, not a fault of the task: it goes back to pending uncounted.
    // An attempt that fails while another attempt of its task publishes the output (which may
    // remove what this one left) is superseded, not faulty.
    boolean killed = u.state() == TaskReport.State.KILLED || fetchFailed
        || !ok && scheduler.commitHeldByAnother(u.taskId());
    long runMs = scheduler.runningAttempt(u.taskId()).map(r -> clock.nowMs() - r.startMs()).orElse(-1L);
    Optional<TaskScheduler.TaskEnd> ended = scheduler.taskEnded(u.taskId(), ok, killed, u.error(), runMs);
    if (ended.isEmpty()) {
      return;
    }
    TaskScheduler.TaskEnd end = ended.get();
    TaskAttempt a = end.attempt();
    if (!end.counted()) {
      supersededEnded(a, u, ok);
      return;
    }
    for (TaskAttempt other : end.redundant()) {
      LOG.info("Task {} of stage {}: attempt {} on {} succeeded first; killing attempt {} on executor {}", a.index(),
          a.stageId(), a.attempt(), a.host(), other.attempt(), other.executorId());
      kill(other);
    }
    if (dynamic != null) {
      dynamic.taskEnded(a, ok, killed, clock.nowMs());
    }
    MapOutputs.Output written = ok ? outputWritten(session, a, u) : null;
    if (ok) {
      lineage.counters().succeeded(a.stageId(), a.index(), u.counters());
    }
    if (ok && streaming == null && !lineage.isRerunning(a.stageId())) {
      journal.taskSucceeded(a.stageId(), a.index(), written);
    }
    logEnd(a, u, ok ? JobEvents.Status.SUCCESS : fetchFailed ? JobEvents.Status.FAILED
        : killed ? JobEvents.Status.KILLED : JobEvents.Status.FAILED, fetchFailed, end.redundant());
    afterEnd(end, a, fetchFailed, u);
    // After the scheduling round the end started: an executor handed its next task at once did not
    // idle, and a line for it would be a third of a busy stage's event log.
    if (!job.ending()) {
      idleAfter(a.executorId());
    }
  }

  /** A map attempt that succeeded: where its shuffle output is now; null for a task that writes none. */
  private MapOutputs.Output outputWritten(Session session, TaskAttempt a, TaskReport u) {
    if (!lineage.stage(a.stageId()).writesShuffle()) {
      return null;
    }
    MapOutputs.Output written = new MapOutputs.Output(a.executorId(), session.host, u.shufflePort(),
        session.localDirs, session.shuffleExternal);
    mapOutputs.put(a.stageId(), a.index(), written);
    if (dynamic != null) {
      dynamic.shuffleOutput(a.executorId(), a.stageId(), clock.nowMs());
    }
    return written;
  }

  /**
   * The executor ran its last task and got no other: the event log says what its shuffle output
   * means for its removal.
   */
  private void idleAfter(String executorId) {
    if (scheduler.runningOn(executorId) == 0 && sessions.isRegistered(executorId)) {
      // Nothing when a service serves it; with shuffle tracking and no service, it stays for
      // elasticam.dynamicAllocation.shuffleTracking.timeout.
      String shuffle = mapOutputs.holdsUnservedOutput(executorId) ? "held by the executor"
          : mapOutputs.wroteServedOutput(executorId) ? "served by the shuffle service" : "none";
      events.write(Event.EXECUTOR_IDLE, EXECUTOR_ID, executorId, SHUFFLE_OUTPUT, shuffle);
    }
  }

  /** The attempt's end in the event log; a failure counts against its host, and is logged with its error. */
  private void logEnd(TaskAttempt a, TaskReport u, JobEvents.Status status, boolean fetchFailed,
      List<TaskAttempt> wonOver) {
    List<Object> fields = new ArrayList<>(counters(u));
    if (!wonOver.isEmpty()) {
      fields.addAll(List.of(WON_OVER_ATTEMPTS, wonOver.stream().map(TaskAttempt::attempt).toList()));
    }
    if (status == JobEvents.Status.FAILED && !fetchFailed) {
      target.taskFailedOn(a);
    }
    if (status == JobEvents.Status.FAILED) {
      String error = TaskErrors.summary(u.error());
      LOG.info("Task {} of stage {} attempt {} failed on executor {}: {}", a.index(), a.stageId(), a.attempt(),
          a.executorId(), error);
      fields.addAll(List.of(ERROR, error));
    }
    jobEvents.taskEnded(a, clock.nowMs() - a.startMs(), status, fetchFailed, fields.toArray());
  }

  /** {@code task_end}'s counters, when the attempt reported any (a simulated one never does). */
  private static List<Object> counters(TaskReport u) {
    return u.counters().isEmpty() ? List.of() : List.of(COUNTERS, new java.util.TreeMap<>(u.counters()));
  }

  /** What a counted end sets off: the job's failure, lost input run again, a retirement, the stage's completion. */
  private void afterEnd(TaskScheduler.TaskEnd end, TaskAttempt a, boolean fetchFailed, TaskReport u) {
    if (end.jobFailure().isPresent()) {
      if (streaming != null && streaming.stageFailed(a.stageId(), end.jobFailure().get())) {
        launches.revive();
        return;
      }
      job.finish(Outcome.failed(end.jobFailure().get()));
      return;
    }
    if (fetchFailed) {
      outputs.fetchFailed(a, u.fetchFailure());
      if (job.ending()) {
        return;
      }
    }
    sessions.retireIfIdle(a.executorId());
    end.stageCompleted().ifPresent(job::stageCompleted);
    launches.revive();
  }

  /** Asks the attempt's executor to stop it; its end, when reported, is the scheduler's to judge. */
  void kill(TaskAttempt a) {
    Session on = sessions.get(a.executorId());
    if (on != null) {
      on.link.kill(a.taskId());
    }
  }

  /** A stream's stages given up: their running attempts are stopped, and end as killed for the policy. */
  void abandon(List<Integer> stageIds) {
    for (int id : stageIds) {
      for (TaskAttempt a : scheduler.abort(id)) {
        kill(a);
        if (dynamic != null) {
          dynamic.taskEnded(a, false, true, clock.nowMs());
        }
      }
    }
  }

  /** An attempt whose task another attempt completed: its output is not used, its end counts for nothing. */
  private void supersededEnded(TaskAttempt a, TaskReport u, boolean ok) {
    if (dynamic != null) {
      dynamic.taskEnded(a, false, true, clock.nowMs());
    }
    List<Object> fields = new ArrayList<>(counters(u));
    fields.addAll(List.of(SUPERSEDED, true));
    jobEvents.taskEnded(a, clock.nowMs() - a.startMs(), ok ? JobEvents.Status.SUCCESS : JobEvents.Status.KILLED,
        false, fields.toArray());
    LOG.info("Attempt {} of task {} of stage {} on executor {} ended ({}) after another attempt of it succeeded",
        a.attempt(), a.index(), a.stageId(), a.executorId(), u.state());
    sessions.retireIfIdle(a.executorId());
    launches.revive();
  }
}
