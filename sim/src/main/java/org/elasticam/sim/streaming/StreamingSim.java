package org.elasticam.sim.streaming;

import java.util.ArrayList;
import java.util.List;
import org.elasticam.allocator.streaming.BatchStats;
import org.elasticam.allocator.streaming.StreamingDecision;
import org.elasticam.allocator.streaming.StreamingPolicy;
import org.elasticam.workload.stream.BatchLoad;

/**
 * One simulated streaming run under one real policy. Batch i is due at {@code load.dueAtMs(i)} and
 * submitted at the later of that and the previous batch's completion (one batch at a time, in
 * order). Right before submission the policy's {@code beforeBatch} decides, and every
 * {@value #TICK_MS} ms its {@code tick}; each decision is applied at once (removals first, then the
 * target). A batch is {@code partitions} equal tasks of {@code taskMs + taskOverheadMs}, list-scheduled
 * on free slots, oldest executor first; an executor that registers mid-batch takes tasks at once.
 * The policy hears of each batch when its last task ends, with the executors there at submission.
 */
final class StreamingSim implements SimFleet.Listener {

  static final long TICK_MS = 100;
  /** A run that falls this far behind its last due time cannot keep up; it stops with an error. */
  static final long MAX_LAG_MS = 30L * 24 * 3600 * 1000;

  /**
   * What a run simulates, the same for every policy.
   *
   * @param partitions tasks per batch, or null for two per executor at submission
   */
  record Setup(BatchLoad load, int batches, Integer partitions, long taskOverheadMs, int slotsPerExecutor,
      StreamingWorld world) {}

  private final Events time = new Events();
  private final StreamingPolicy policy;
  private final Setup setup;
  private final SimFleet fleet;
  private final List<BatchStats> done = new ArrayList<>();
  private int batch = -1;
  private long submittedAtMs;
  private int executorsAtSubmission;
  private long records;
  private long taskDurationMs;
  private int queuedTasks;
  private int runningTasks;
  private boolean finished;
  private int registeredCount;
  private int peakExecutors;
  private long executorMs;
  private long countedToMs;
  private int targetChanges;

  private StreamingSim(StreamingPolicy policy, Setup setup) {
    this.policy = policy;
    this.setup = setup;
    this.fleet = new SimFleet(time, setup.world(), setup.slotsPerExecutor(), this);
  }

  /** @throws IllegalStateException when the run falls more than {@link #MAX_LAG_MS} behind */
  static StreamingResult run(StreamingPolicy policy, Setup setup) {
    return new StreamingSim(policy, setup).run();
  }

  private StreamingResult run() {
    long giveUpMs = setup.load().dueAtMs(setup.batches() - 1) + MAX_LAG_MS;
    fleet.reconcile(policy.target());
    time.at(0, this::tick);
    time.at(setup.load().dueAtMs(0), () -> submit(0));
    while (!finished && time.runNext()) {
      if (time.now() > giveUpMs) {
        throw new IllegalStateException(policy.name() + ": batch " + batch + " still running 30 days after the"
            + " last batch was due; the load needs far more than " + fleet.live() + " executors");
      }
    }
    account(time.now());
    return new StreamingResult(policy.name(), done, time.now(), executorMs, peakExecutors, fleet.asksMade(),
        fleet.asksWithdrawn(), targetChanges);
  }

  private void tick() {
    if (finished) {
      return;
    }
    apply(policy.tick(time.now()));
    time.after(TICK_MS, this::tick);
  }

  private void submit(int i) {
    batch = i;
    apply(policy.beforeBatch(i, time.now()));
    submittedAtMs = time.now();
    executorsAtSubmission = fleet.live();
    int partitions = BatchLoad.partitions(setup.partitions(), executorsAtSubmission);
    records = setup.load().records(i);
    taskDurationMs = setup.load().taskMs(i, partitions) + setup.taskOverheadMs();
    queuedTasks = partitions;
    dispatch();
  }

  private void apply(StreamingDecision d) {
    for (String id : d.remove()) {
      fleet.remove(id);
    }
    fleet.reconcile(d.target());
    if (d.targetChanged()) {
      targetChanges++;
    }
  }

  /** List scheduling: every free slot takes the next task, oldest executor first. */
  private void dispatch() {
    for (SimFleet.Executor e : fleet.registered()) {
      while (queuedTasks > 0 && e.canTakeTask()) {
        e.busy++;
        queuedTasks--;
        runningTasks++;
        time.after(taskDurationMs, () -> taskEnded(e));
      }
    }
  }

  private void taskEnded(SimFleet.Executor e) {
    runningTasks--;
    fleet.taskEnded(e);
    if (queuedTasks > 0) {
      dispatch();
    } else if (runningTasks == 0) {
      completed();
    }
  }

  private void completed() {
    long now = time.now();
    BatchStats stats = new BatchStats(batch, setup.load().dueAtMs(batch), submittedAtMs, now, records,
        executorsAtSubmission, false);
    done.add(stats);
    policy.batchCompleted(stats, now);
    if (batch + 1 < setup.batches()) {
      int next = batch + 1;
      time.at(Math.max(setup.load().dueAtMs(next), now), () -> submit(next));
    } else {
      finished = true;
    }
  }

  @Override
  public void registered(SimFleet.Executor e) {
    account(time.now());
    registeredCount++;
    peakExecutors = Math.max(peakExecutors, registeredCount);
    policy.executorAdded(e.id, time.now());
    if (queuedTasks > 0) {
      dispatch();
    }
  }

  @Override
  public void left(SimFleet.Executor e) {
    account(time.now());
    registeredCount--;
    policy.executorRemoved(e.id, time.now());
    // A departure frees capacity an ask may have been waiting for.
    fleet.reconcile(policy.target());
  }

  /** Executor-time: registered executors integrated up to {@code nowMs}. */
  private void account(long nowMs) {
    executorMs += registeredCount * (nowMs - countedToMs);
    countedToMs = nowMs;
  }
}
