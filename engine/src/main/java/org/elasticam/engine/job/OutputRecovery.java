package org.elasticam.engine.job;

import static org.elasticam.report.events.EventFields.ATTEMPT;
import static org.elasticam.report.events.EventFields.FROM_EXECUTOR;
import static org.elasticam.report.events.EventFields.MAPS;
import static org.elasticam.report.events.EventFields.MESSAGE;
import static org.elasticam.report.events.EventFields.REASON;
import static org.elasticam.report.events.EventFields.RECOMPUTED_STAGE;
import static org.elasticam.report.events.EventFields.SERVERS;
import static org.elasticam.report.events.EventFields.SHUFFLE_ID;
import static org.elasticam.report.events.EventFields.STAGE_ID;
import static org.elasticam.report.events.EventFields.TASK;
import static org.elasticam.report.events.EventFields.TASKS;
import static org.elasticam.report.events.EventFields.WAITING_STAGE;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.elasticam.api.Stage;
import org.elasticam.engine.allocation.AllocationFeedback;
import org.elasticam.engine.lineage.MapOutputs;
import org.elasticam.engine.lineage.StageLineage;
import org.elasticam.engine.scheduling.TaskAttempt;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.report.events.Event;
import org.elasticam.report.events.EventWriter;
import org.elasticam.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shuffle output lost or no longer wanted: the maps whose output is gone run again while the
 * stage reading it waits, a reducer's failed fetch says which (or fails the job when a stage's
 * input keeps getting lost), and the files of a shuffle no stage will read again are deleted.
 * {@link StageLineage} decides which; this carries it out on the scheduler and the event log.
 */
final class OutputRecovery {

  // JobEngine's logger: these lines were the engine's, and log settings name it.
  private static final Logger LOG = LoggerFactory.getLogger(JobEngine.class);

  private final TaskScheduler scheduler;
  /** The dynamic-allocation policy's feedback, or null for static allocation. */
  private final AllocationFeedback dynamic;
  private final StageLineage lineage;
  private final MapOutputs mapOutputs;
  private final EventWriter events;
  private final Clock clock;
  private final Consumer<Outcome> finish;
  private ShuffleCleaner shuffleCleaner = ShuffleCleaner.NONE;

  OutputRecovery(TaskScheduler scheduler, AllocationFeedback dynamic, StageLineage lineage, EventWriter events,
      Clock clock, Consumer<Outcome> finish) {
    this.scheduler = scheduler;
    this.dynamic = dynamic;
    this.lineage = lineage;
    this.mapOutputs = lineage.outputs();
    this.events = events;
    this.clock = clock;
    this.finish = finish;
  }

  void shuffleCleaner(ShuffleCleaner cleaner) {
    this.shuffleCleaner = cleaner;
  }

  /**
   * Lost map output runs again: its maps are resubmitted, and the stage that needs it (if one does
   * yet) waits, its tasks paused, until they are done.
   */
  void rerun(StageLineage.Rerun r) {
    Stage mapStage = r.mapStage();
    if (r.waitingStage() != null) {
      scheduler.pause(r.waitingStage());
    }
    scheduler.resubmit(mapStage, r.maps(), clock.nowMs());
    if (dynamic != null) {
      dynamic.stageResubmitted(mapStage, r.maps(), clock.nowMs());
    }
    if (r.waitingStage() != null) {
      LOG.info("Re-running {} map task(s) {} of stage {}: their shuffle output is lost ({}); stage {} waits",
          r.maps().size(), abbreviate(r.maps()), mapStage.id(), r.why(), r.waitingStage());
    } else {
      LOG.info("Re-running {} map task(s) {} of stage {}: {}", r.maps().size(), abbreviate(r.maps()), mapStage.id(),
          r.why());
    }
    events.write(Event.STAGE_RESUBMITTED, STAGE_ID, mapStage.id(), TASKS, r.maps(), REASON, r.why(), WAITING_STAGE,
        r.waitingStage());
  }

  /** A reducer could not fetch its input: the maps run again, or the job fails when the stage keeps losing it. */
  void fetchFailed(TaskAttempt a, TaskReport.FetchFailure f) {
    StageLineage.FetchVerdict verdict = lineage.fetchFailed(a.stageId(), a.index(), f.shuffleId(), f.maps(),
        f.message());
    int failures = verdict instanceof StageLineage.FetchVerdict.Fail fail ? fail.failuresInStage()
        : ((StageLineage.FetchVerdict.Recompute) verdict).failuresInStage();
    events.write(Event.FETCH_FAILURE, STAGE_ID, a.stageId(), TASK, a.index(), ATTEMPT, a.attempt(),
        SHUFFLE_ID, f.shuffleId(), FROM_EXECUTOR, f.executorId(), MAPS, f.maps(), MESSAGE, f.message());
    LOG.warn("Task {} of stage {} could not fetch its input ({} fetch failures in this stage): {}", a.index(),
        a.stageId(), failures, f.message());
    if (verdict instanceof StageLineage.FetchVerdict.Fail fail) {
      finish.accept(Outcome.failed(fail.diagnostics()));
      return;
    }
    StageLineage.FetchVerdict.Recompute go = (StageLineage.FetchVerdict.Recompute) verdict;
    for (String host : go.hostsToAvoid()) {
      scheduler.avoidForShuffleOutput(host, clock.nowMs() + JobEngine.UNFETCHABLE_HOST_AVOIDANCE_MS);
      LOG.info("Tasks writing shuffle output stay off {} for {} s while other hosts have executors:"
          + " reducers could not fetch output from it", host, JobEngine.UNFETCHABLE_HOST_AVOIDANCE_MS / 1000);
    }
    go.rerun().ifPresent(this::rerun);
  }

  /** A re-run map stage has all its output again: the stages that waited on it go on. */
  void inputRecomputed(int shuffleId, List<Integer> resumed) {
    for (int reader : resumed) {
      scheduler.resume(reader, clock.nowMs());
      LOG.info("Stage {} resumes: the lost output of stage {} was recomputed", reader, shuffleId);
      events.write(Event.STAGE_RESUMED, STAGE_ID, reader, RECOMPUTED_STAGE, shuffleId);
    }
  }

  /**
   * Deletes a shuffle's files wherever its output is served, as Spark's ContextCleaner does for a
   * shuffle no one can read any more: a long job, or a stream, would otherwise fill the nodes'
   * disks until it ends. Its locations stay known until the stage is forgotten.
   */
  void cleanShuffle(int shuffleId, String why) {
    Stage stage = lineage.stage(shuffleId);
    if (stage == null || !stage.writesShuffle() || !mapOutputs.isShuffle(shuffleId)) {
      return;
    }
    Set<ShuffleCleaner.Server> servers = new LinkedHashSet<>();
    for (MapOutputs.Output o : mapOutputs.outputs(shuffleId)) {
      if (o != null) {
        servers.add(new ShuffleCleaner.Server(o.host(), o.port()));
      }
    }
    LOG.info("Deleting the files of shuffle {} on {} server(s): {}", shuffleId, servers.size(), why);
    events.write(Event.SHUFFLE_REMOVED, SHUFFLE_ID, shuffleId, SERVERS, servers.size(), REASON, why);
    shuffleCleaner.remove(shuffleId, servers);
    mapOutputs.deleted(shuffleId);
  }

  private static String abbreviate(List<Integer> ids) {
    return ids.size() <= 10 ? ids.toString() : ids.subList(0, 10) + " and " + (ids.size() - 10) + " more";
  }
}
