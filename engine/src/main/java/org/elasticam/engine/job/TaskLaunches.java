package org.elasticam.engine.job;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.elasticam.api.Stage;
import org.elasticam.conf.Durations;
import org.elasticam.engine.allocation.AllocationFeedback;
import org.elasticam.engine.events.JobEvents;
import org.elasticam.engine.executors.ExecutorRoster;
import org.elasticam.engine.lineage.MapOutputs;
import org.elasticam.engine.lineage.ShuffleInput;
import org.elasticam.engine.lineage.StageLineage;
import org.elasticam.engine.scheduling.TaskAttempt;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Free slots become running tasks: the executors' offers go to the task scheduler, and each
 * attempt it places is launched on its executor with where its shuffle input is and where its
 * output goes. Not before enough of the initial executors registered, though.
 */
final class TaskLaunches {

  // JobEngine's logger: these lines were the engine's, and log settings name it.
  private static final Logger LOG = LoggerFactory.getLogger(JobEngine.class);

  private final DriverSettings settings;
  private final TaskScheduler scheduler;
  private final ExecutorSessions sessions;
  private final ExecutorRoster roster;
  /** The dynamic-allocation policy's feedback, or null for static allocation. */
  private final AllocationFeedback dynamic;
  private final StageLineage lineage;
  private final MapOutputs mapOutputs;
  private final JobEvents jobEvents;
  private final Clock clock;
  private final boolean streaming;
  private final BooleanSupplier ended;
  /** When scheduling began waiting for the initial executors, and how many it waits for. */
  private long registrationWaitStartMs;
  private int initialExecutors;
  private boolean schedulingStarted;

  TaskLaunches(DriverSettings settings, TaskScheduler scheduler, ExecutorSessions sessions, ExecutorRoster roster,
      AllocationFeedback dynamic, StageLineage lineage, JobEvents jobEvents, Clock clock, boolean streaming,
      BooleanSupplier ended) {
    this.settings = settings;
    this.scheduler = scheduler;
    this.sessions = sessions;
    this.roster = roster;
    this.dynamic = dynamic;
    this.lineage = lineage;
    this.mapOutputs = lineage.outputs();
    this.jobEvents = jobEvents;
    this.clock = clock;
    this.streaming = streaming;
    this.ended = ended;
  }

  /**
   * The first tasks wait for {@code initialExecutors}; not so when {@code alreadySpread}: a later
   * attempt's survivors re-attach to work already spread over them.
   */
  void awaitInitial(int initialExecutors, boolean alreadySpread) {
    registrationWaitStartMs = clock.nowMs();
    this.initialExecutors = initialExecutors;
    schedulingStarted = alreadySpread;
  }

  /**
   * Whether the first tasks may be scheduled: once {@code minRegisteredResourcesRatio} of the
   * initial executors registered, or {@code maxRegisteredResourcesWaitingTime} passed (Spark on
   * YARN waits for 80 % the same way). Without it the first executor up takes a whole short
   * stage, and its map output all lands on one node.
   */
  private boolean enoughRegistered() {
    if (schedulingStarted) {
      return true;
    }
    long waited = clock.nowMs() - registrationWaitStartMs;
    boolean byRatio = sessions.count() >= initialExecutors * settings.minRegisteredRatio();
    if (byRatio || waited >= settings.maxRegisteredWait().toMillis()) {
      schedulingStarted = true;
      LOG.info("Scheduling tasks with {} of {} initial executor(s) registered, {}", sessions.count(),
          initialExecutors, byRatio ? "at least elasticam.scheduler.minRegisteredResourcesRatio ("
              + settings.minRegisteredRatio() + ")" : "after waiting " + Durations.format(
              settings.maxRegisteredWait()) + " (elasticam.scheduler.maxRegisteredResourcesWaitingTime)");
    }
    return schedulingStarted;
  }

  /** Offers every free slot to the pending tasks, and launches what the scheduler placed. */
  void revive() {
    if (ended.getAsBoolean() || scheduler.pendingTasks() == 0 && scheduler.speculativePending() == 0
        || sessions.isEmpty() || !enoughRegistered()) {
      return;
    }
    List<TaskScheduler.Offer> offers = sessions.offers(roster::offersNothing);
    // A shuffle's locations are the same for every task launched in one round: built once each.
    Map<Integer, ShuffleInput> inputs = new HashMap<>();
    for (TaskAttempt a : scheduler.schedule(offers, clock.nowMs())) {
      if (dynamic != null) {
        dynamic.taskStarted(a, clock.nowMs());
      }
      jobEvents.taskStarted(a);
      sessions.get(a.executorId()).link.launch(launch(a, inputs));
    }
  }

  private TaskLaunch launch(TaskAttempt a, Map<Integer, ShuffleInput> inputs) {
    Stage stage = lineage.stage(a.stageId());
    TaskLaunch.ShuffleWrite write = stage.writesShuffle() ? new TaskLaunch.ShuffleWrite(stage.id(),
        stage.shufflePartitions(), mapOutputs.wasLost(stage.id(), a.index()), stage.shuffle()) : null;
    List<ShuffleInput> reads = new ArrayList<>();
    for (int p : lineage.shuffleParents(stage)) {
      reads.add(inputs.computeIfAbsent(p, q -> ShuffleInput.of(mapOutputs, q, lineage.stage(q).shuffle())));
    }
    int stageIdBase = streaming ? a.stageId() - a.stageId() % StreamingPlan.STAGE_ID_STRIDE : -1;
    return new TaskLaunch(a, stageIdBase, write, reads, stage.output() == null ? null : stage.output().dir());
  }
}
