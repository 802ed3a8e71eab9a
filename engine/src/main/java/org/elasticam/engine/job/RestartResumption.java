package org.elasticam.engine.job;

import static org.elasticam.report.events.EventFields.RECOVERED;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.elasticam.api.Stage;
import org.elasticam.conf.Durations;
import org.elasticam.engine.events.JobEvents;
import org.elasticam.engine.executors.ExecutorRoster;
import org.elasticam.engine.lineage.MapOutputs;
import org.elasticam.engine.lineage.StageLineage;
import org.elasticam.engine.recovery.Restarted;
import org.elasticam.engine.recovery.Resumption;
import org.elasticam.time.Clock;
import org.elasticam.time.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An AM attempt after a restart: the job picks up where the earlier attempts left it (stages they
 * completed stay completed, tasks that succeeded in running stages stay done), and the executors
 * that outlived them have a while to re-register before they are given up.
 */
final class RestartResumption {

  // JobEngine's logger: these lines were the engine's, and log settings name it.
  private static final Logger LOG = LoggerFactory.getLogger(JobEngine.class);

  private final Restarted recovery;
  private final JobPlan plan;
  private final StageLineage lineage;
  private final MapOutputs mapOutputs;
  private final ExecutorRoster roster;
  private final AllocatorPort allocator;
  private final JobEvents jobEvents;
  private final Clock clock;
  /** Tasks of stages an earlier attempt completed, for progress. */
  private int recoveredTasks;
  /** Stages an earlier attempt was running, by id: the tasks that succeeded there run no more. */
  private final Map<Integer, Set<Integer>> partlyDone = new HashMap<>();

  RestartResumption(Restarted recovery, JobPlan plan, StageLineage lineage, ExecutorRoster roster,
      AllocatorPort allocator, JobEvents jobEvents, Clock clock) {
    this.recovery = recovery;
    this.plan = plan;
    this.lineage = lineage;
    this.mapOutputs = lineage.outputs();
    this.roster = roster;
    this.allocator = allocator;
    this.jobEvents = jobEvents;
    this.clock = clock;
    roster.awaitReattach(recovery.survivors());
  }

  Restarted restarted() {
    return recovery;
  }

  /** Survivors that are not back when the re-register timeout ends are given up then. */
  void awaitSurvivors(Scheduler loop) {
    loop.schedule(recovery.reregisterTimeout(), this::giveUpOnSurvivors);
  }

  /**
   * Where the earlier attempts left the job ({@link Resumption}): the stages they completed are
   * recorded completed again; what is returned says what to submit.
   */
  Resumption.Resumed resume() {
    Resumption.Resumed r = Resumption.resume(plan, clock.nowMs(), recovery.completedStages(),
        recovery.runningStages(), recovery.survivors(), lineage);
    for (Stage stage : r.completed()) {
      jobEvents.stageCompleted(stage.id(), stage.tasks().size(), RECOVERED, true);
    }
    recoveredTasks += r.recoveredTasks();
    partlyDone.putAll(r.partlyDone());
    LOG.info("Resuming after an AM restart: {} of {} stages were completed by an earlier attempt; {} executor(s)"
        + " of it are still running and have {} to re-register", r.completed().size(), plan.totalStages(),
        recovery.survivors().size(), Durations.format(recovery.reregisterTimeout()));
    return r;
  }

  /** The tasks of this stage that succeeded before the restart, once: null or empty when none did. */
  Set<Integer> doneBefore(int stageId) {
    return partlyDone.remove(stageId);
  }

  int recoveredTasks() {
    return recoveredTasks;
  }

  /** Survivors that did not come back in time are released; output only they served is lost. */
  private void giveUpOnSurvivors() {
    for (String id : roster.stillAwaited()) {
      survivorGone(id);
      String why = "lost: it did not re-register within " + Durations.format(recovery.reregisterTimeout())
          + " of the AM restart (elasticam.executor.reregisterTimeout)";
      LOG.warn("Releasing executor {}: {}", id, why);
      allocator.killExecutor(id, why);
    }
  }

  /** A survivor that will not re-register: the output only it served is lost. */
  void survivorGone(String id) {
    if (roster.survivorGone(id)) {
      Set<Integer> lost = mapOutputs.executorLost(id);
      if (!lost.isEmpty()) {
        LOG.info("Executor {} did not come back after the AM restart: its shuffle output of stage(s) {} is lost", id,
            lost);
      }
    }
  }
}
