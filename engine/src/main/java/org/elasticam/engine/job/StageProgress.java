package org.elasticam.engine.job;

import static org.elasticam.report.events.EventFields.COUNTERS;
import static org.elasticam.report.events.EventFields.RECOMPUTED;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.elasticam.api.Stage;
import org.elasticam.engine.allocation.AllocationFeedback;
import org.elasticam.engine.events.JobEvents;
import org.elasticam.engine.lineage.MapOutputs;
import org.elasticam.engine.lineage.StageLineage;
import org.elasticam.engine.recovery.JobJournal;
import org.elasticam.engine.recovery.Resumption;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.time.Clock;
import org.elasticam.time.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plan's stages through the job: each submitted when the plan says it is due, completed when
 * its last task is (or, having recomputed lost output, lets its readers go on), and the job
 * succeeded when every stage is.
 */
final class StageProgress {

  // JobEngine's logger: these lines were the engine's, and log settings name it.
  private static final Logger LOG = LoggerFactory.getLogger(JobEngine.class);

  /** The job's side of its stages' progress. */
  interface Job {
    boolean ending();

    void finish(Outcome o);
  }

  private final JobPlan plan;
  private final Scheduler loop;
  private final Clock clock;
  private final TaskScheduler scheduler;
  /** The dynamic-allocation policy's feedback, or null for static allocation. */
  private final AllocationFeedback dynamic;
  private final StageLineage lineage;
  private final MapOutputs mapOutputs;
  private final JobEvents jobEvents;
  private final OutputRecovery outputs;
  private final TargetSync target;
  private final TaskLaunches launches;
  /** The stream's batches, or null for a batch job. */
  private final StreamingRun streaming;
  private final Job job;
  private JobJournal journal = JobJournal.NONE;
  /** After an AM restart, where the earlier attempts left the job; null on a first attempt. */
  private RestartResumption restart;
  private int stagesDone;

  StageProgress(JobPlan plan, Scheduler loop, Clock clock, TaskScheduler scheduler, AllocationFeedback dynamic,
      StageLineage lineage, JobEvents jobEvents, OutputRecovery outputs, TargetSync target, TaskLaunches launches,
      StreamingRun streaming, Job job) {
    this.plan = plan;
    this.loop = loop;
    this.clock = clock;
    this.scheduler = scheduler;
    this.dynamic = dynamic;
    this.lineage = lineage;
    this.mapOutputs = lineage.outputs();
    this.jobEvents = jobEvents;
    this.outputs = outputs;
    this.target = target;
    this.launches = launches;
    this.streaming = streaming;
    this.job = job;
  }

  void recordTo(JobJournal j) {
    this.journal = j;
  }

  void resumeFrom(RestartResumption r) {
    this.restart = r;
  }

  /** A first attempt: the plan's first stages. */
  void start() {
    submitAll(plan.start(clock.nowMs()));
  }

  /** A later attempt: the stages the earlier ones did not complete. */
  void resume() {
    Resumption.Resumed r = restart.resume();
    stagesDone += r.completed().size();
    if (stagesDone == plan.totalStages()) {
      job.finish(Outcome.succeeded("all " + plan.totalStages() + " stages had succeeded before the AM restarted"));
      return;
    }
    submitAll(r.toSubmit());
  }

  private void submitAll(List<JobPlan.Submission> submissions) {
    long now = clock.nowMs();
    for (JobPlan.Submission s : submissions) {
      if (s.atMs() <= now) {
        submit(s);
      } else {
        loop.schedule(Duration.ofMillis(s.atMs() - now), () -> submit(s));
      }
    }
  }

  void submit(JobPlan.Submission s) {
    if (job.ending()) {
      return;
    }
    Stage stage = s.stage();
    lineage.submitted(stage);
    Set<Integer> alreadyDone = restart == null ? null : restart.doneBefore(stage.id());
    if (alreadyDone == null || alreadyDone.isEmpty()) {
      scheduler.submit(stage, clock.nowMs());
    } else {
      scheduler.submit(stage, alreadyDone, clock.nowMs());
      LOG.info("Stage {}: {} of its {} tasks had succeeded before the AM restarted; the others run", stage.id(),
          alreadyDone.size(), stage.tasks().size());
    }
    if (dynamic != null) {
      dynamic.stageSubmitted(stage, clock.nowMs());
    }
    LOG.info("Submitting stage {} ({}) with {} tasks", stage.id(), stage.name(), stage.tasks().size());
    jobEvents.stageSubmitted(stage);
    lineage.lostInputOf(stage).forEach(outputs::rerun);
    target.sync();
    launches.revive();
  }

  /** The stage's last task succeeded. */
  void completed(int stageId) {
    if (dynamic != null) {
      dynamic.stageCompleted(stageId, clock.nowMs());
    }
    if (streaming == null) {
      journal.stageCompleted(stageId, mapOutputs.outputs(stageId), clock.nowMs());
    }
    StageLineage.Completion done = lineage.completed(stageId);
    int tasks = lineage.stage(stageId).tasks().size();
    // The sums over one successful attempt per task; none when its tasks counted nothing (simulated ones).
    Map<String, Long> counted = lineage.counters().sums(stageId);
    List<Object> sums = counted.isEmpty() ? List.of() : List.of(COUNTERS, counted);
    if (done.recomputed()) {
      LOG.info("Stage {} recomputed its lost output", stageId);
      List<Object> more = new ArrayList<>(List.of(RECOMPUTED, true));
      more.addAll(sums);
      jobEvents.stageCompleted(stageId, tasks, more.toArray());
      outputs.inputRecomputed(stageId, done.resumed());
      return;
    }
    stagesDone++;
    if (dynamic != null) {
      done.consumed().forEach(p -> dynamic.shuffleCleaned(p, clock.nowMs()));
    }
    done.removable().forEach(p -> outputs.cleanShuffle(p, "every stage that reads it completed"));
    jobEvents.stageCompleted(stageId, tasks, sums.toArray());
    if (streaming != null) {
      LOG.info("Stage {} completed", stageId);
      streaming.stageCompleted(stageId);
      return;
    }
    LOG.info("Stage {} completed ({} of {} stages)", stageId, stagesDone, plan.totalStages());
    submitAll(plan.stageCompleted(stageId, clock.nowMs()));
    target.sync();
    if (stagesDone == plan.totalStages()) {
      job.finish(Outcome.succeeded("all " + plan.totalTasks() + " tasks of " + plan.totalStages()
          + " stages succeeded"));
    }
  }

  /** A stream's batch is done: its stages' shuffle files go, and nothing remembers them. */
  void forget(List<Integer> stageIds) {
    for (int id : stageIds) {
      outputs.cleanShuffle(id, "its batch is done");
      lineage.forget(id);
      scheduler.forget(id);
      if (dynamic != null) {
        dynamic.forget(id);
      }
    }
  }
}
