package org.elasticam.engine.job;

import static org.elasticam.report.events.EventFields.BATCH;
import static org.elasticam.report.events.EventFields.DURATION_MS;
import static org.elasticam.report.events.EventFields.EXECUTORS;
import static org.elasticam.report.events.EventFields.FAILED_IN_A_ROW;
import static org.elasticam.report.events.EventFields.PROCESSING_MS;
import static org.elasticam.report.events.EventFields.REASON;
import static org.elasticam.report.events.EventFields.RECORDS;
import static org.elasticam.report.events.EventFields.SCHEDULING_DELAY_MS;
import static org.elasticam.report.events.EventFields.STAGES;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.elasticam.allocator.streaming.BatchStats;
import org.elasticam.allocator.streaming.StreamingDecision;
import org.elasticam.allocator.streaming.StreamingPolicy;
import org.elasticam.report.events.EventWriter;
import org.elasticam.engine.job.DagPlan;
import org.elasticam.engine.job.JobPlan;
import org.elasticam.engine.job.StreamingPlan;
import org.elasticam.api.Stage;
import org.elasticam.time.Clock;
import org.elasticam.time.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.elasticam.report.events.Event;

/**
 * Runs a streaming job's micro-batches one at a time, in order: batch {@code i} is due at the end
 * of its input interval and starts then, or when the batch before it ends if that one ran late
 * (the difference is its scheduling delay). Just before a batch starts, the streaming policy
 * decides the executors, so that the batch is sized by the executors it will run on and a removal
 * costs it nothing. Event loop only.
 */
final class StreamingRun {

  private static final Logger LOG = LoggerFactory.getLogger(StreamingRun.class);

  /** What the run needs from the driver. */
  interface Host {
    int registeredExecutors();

    int target();

    void apply(StreamingDecision decision, String policy);

    void submitStage(Stage stage);

    void finish(Outcome outcome);

    /** Whether the job has ended (failed while a batch was waiting for its time). */
    boolean finished();

    /** The failed batch's stages: none of their tasks runs again; those running are killed. */
    void abandonStages(List<Integer> stageIds);

    /** The batch's stages are done and no later batch reads them: the driver may forget them. */
    void forgetStages(List<Integer> stageIds);

    /** Where the stream is, for a later attempt of the AM: the batches before {@code batchesDone} are behind it. */
    void progress(long startMs, int batchesDone);
  }

  private final StreamingPlan plan;
  private final StreamingPolicy policy;
  private final boolean debug;
  private final Host host;
  private final Scheduler loop;
  private final EventWriter events;
  private final Clock clock;
  private long startMs;
  private int batch = -1;
  private DagPlan batchStages;
  private final Set<Integer> stagesLeft = new HashSet<>();
  private List<Integer> batchStageIds = List.of();
  private long dueMs;
  private long submittedMs;
  private long previousEndMs;
  private int executorsAtStart;
  private int batchesDone;
  private int tasksInBatches;
  private BatchStats last;
  private final int maxConsecutiveFailedBatches;
  private int failedInARow;
  private final List<Integer> failedBatches = new java.util.ArrayList<>();
  private String lastFailure;

  /** @param policy the streaming policy, or null when the executor count is static */
  StreamingRun(StreamingPlan plan, StreamingPolicy policy, boolean debug, Host host, Scheduler loop, EventWriter events,
      Clock clock, int maxConsecutiveFailedBatches) {
    this.maxConsecutiveFailedBatches = maxConsecutiveFailedBatches;
    this.plan = plan;
    this.policy = policy;
    this.debug = debug;
    this.host = host;
    this.loop = loop;
    this.events = events;
    this.clock = clock;
  }

  void start() {
    startMs = clock.nowMs();
    LOG.info("Streaming: {} batches of {} ms, input rate {}, policy {}", plan.batches(), plan.batchMs(), plan.rate(),
        policy == null ? "none (static executors)" : policy.name());
    scheduleNext();
  }

  /**
   * Goes on after an AM restart with the batch after the last one done. Each batch stays due when
   * it was, so the batches the restart delayed run back to back, late, until the stream catches up
   * — as a real source's backlog would.
   */
  void resume(long streamStartMs, int done) {
    startMs = streamStartMs;
    batch = done - 1;
    batchesDone = done;
    previousEndMs = clock.nowMs();
    LOG.info("Streaming resumes after an AM restart at batch {} of {}: {} batches were done", done, plan.batches(),
        done);
    if (batchesDone >= plan.batches()) {
      host.finish(Outcome.succeeded("all " + plan.batches() + " batches had succeeded before the AM restarted"));
      return;
    }
    scheduleNext();
  }

  private void scheduleNext() {
    int next = batch + 1;
    long due = startMs + plan.dueAtMs(next);
    long wait = Math.max(0, due - clock.nowMs());
    loop.schedule(java.time.Duration.ofMillis(wait), () -> startBatch(next, due));
  }

  private void startBatch(int b, long due) {
    if (host.finished()) {
      return;
    }
    long now = clock.nowMs();
    batch = b;
    dueMs = due;
    // The scheduling delay is what the batch before cost, not the event loop's jitter.
    submittedMs = Math.max(due, Math.min(now, previousEndMs));
    if (policy != null) {
      decide(policy.beforeBatch(b, now));
    }
    executorsAtStart = host.registeredExecutors();
    List<Stage> stages;
    try {
      // Before any executor registered, size the batch for those asked for: its tasks wait for them.
      stages = plan.batch(b, executorsAtStart > 0 ? executorsAtStart : host.target());
      batchStages = new DagPlan(stages);
    } catch (Exception e) {
      host.finish(Outcome.failed("Batch " + b + " could not be planned: " + e.getMessage()));
      return;
    }
    stagesLeft.clear();
    stages.forEach(s -> stagesLeft.add(s.id()));
    batchStageIds = stages.stream().map(Stage::id).toList();
    tasksInBatches += stages.stream().mapToInt(s -> s.tasks().size()).sum();
    events.write(Event.BATCH_SUBMITTED, BATCH, b, RECORDS, plan.records(b), EXECUTORS, executorsAtStart,
        STAGES, stages.size(), SCHEDULING_DELAY_MS, submittedMs - due);
    submit(batchStages.start(now));
  }

  private void submit(List<JobPlan.Submission> submissions) {
    for (JobPlan.Submission s : submissions) {
      host.submitStage(s.stage());
    }
  }

  /** @return whether the stage was one of this run's */
  boolean stageCompleted(int stageId) {
    if (!stagesLeft.remove(stageId)) {
      return false;
    }
    submit(batchStages.stageCompleted(stageId, clock.nowMs()));
    if (stagesLeft.isEmpty()) {
      batchCompleted();
    }
    return true;
  }

  /**
   * A task of the stage failed for good. When the stage is the current batch's, the batch is
   * abandoned and the stream goes on with the next one, unless too many failed in a row.
   *
   * @return whether the stage was one of this run's (the run took care of it)
   */
  boolean stageFailed(int stageId, String why) {
    if (!stagesLeft.contains(stageId)) {
      return false;
    }
    long now = clock.nowMs();
    failedInARow++;
    failedBatches.add(batch);
    lastFailure = why;
    previousEndMs = now;
    boolean giveUp = failedInARow > maxConsecutiveFailedBatches;
    LOG.warn("Batch {} failed and is abandoned ({} in a row; elasticam.streaming.maxConsecutiveFailedBatches={}){}: {}",
        batch, failedInARow, maxConsecutiveFailedBatches, giveUp ? "; the job ends" : "; the stream goes on", why);
    events.write(Event.BATCH_FAILED, BATCH, batch, REASON, why, FAILED_IN_A_ROW, failedInARow,
        PROCESSING_MS, now - submittedMs, RECORDS, plan.records(batch));
    host.abandonStages(List.copyOf(stagesLeft));
    stagesLeft.clear();
    host.forgetStages(batchStageIds);
    if (giveUp) {
      host.finish(Outcome.failed(failedInARow + " batches in a row failed (elasticam.streaming"
          + ".maxConsecutiveFailedBatches=" + maxConsecutiveFailedBatches + "); batch " + batch + ": " + why));
      return true;
    }
    // The stream has moved past it: a later AM attempt goes on from the next batch too.
    host.progress(startMs, batch + 1);
    endOfBatch();
    return true;
  }

  private void batchCompleted() {
    failedInARow = 0;
    long now = clock.nowMs();
    last = new BatchStats(batch, dueMs, submittedMs, Math.max(now, submittedMs), plan.records(batch),
        executorsAtStart, false);
    previousEndMs = now;
    batchesDone++;
    LOG.info("Batch {} done: processing {} ms of a {} ms interval, scheduling delay {} ms, {} records, {} executors",
        batch, last.processingMs(), plan.batchMs(), last.schedulingDelayMs(), last.records(), last.executors());
    events.write(Event.BATCH_COMPLETED, BATCH, batch, PROCESSING_MS, last.processingMs(), SCHEDULING_DELAY_MS,
        last.schedulingDelayMs(), DURATION_MS, plan.batchMs(), RECORDS, last.records(), EXECUTORS,
        last.executors());
    if (policy != null) {
      policy.batchCompleted(last, now);
    }
    // A stream runs for days: what the driver knows of a finished batch must not pile up.
    host.forgetStages(batchStageIds);
    host.progress(startMs, batch + 1);
    endOfBatch();
  }

  private void endOfBatch() {
    if (batch + 1 < plan.batches()) {
      scheduleNext();
    } else if (failedBatches.isEmpty()) {
      host.finish(Outcome.succeeded("all " + plan.batches() + " batches (" + tasksInBatches + " tasks) succeeded"));
    } else {
      host.finish(Outcome.succeeded(batchesDone + " of " + plan.batches() + " batches succeeded; "
          + failedBatches.size() + " failed and were abandoned (batches " + shortList(failedBatches) + "); the last"
          + " failure: " + lastFailure));
    }
  }

  private static String shortList(List<Integer> batches) {
    return batches.size() <= 10 ? batches.toString().replaceAll("[\\[\\]]", "")
        : batches.subList(0, 10).toString().replaceAll("[\\[\\]]", "") + ", …";
  }

  void tick(long nowMs) {
    if (policy != null) {
      decide(policy.tick(nowMs));
    }
  }

  private void decide(StreamingDecision d) {
    if (debug) {
      LOG.info("Streaming policy {}: {} ({})", policy.name(), d.isEmpty() ? "no change" : d.reason(), d.inputs());
    }
    if (!d.isEmpty()) {
      host.apply(d, policy.name());
    }
  }

  void executorAdded(String id, long nowMs) {
    if (policy != null) {
      policy.executorAdded(id, nowMs);
    }
  }

  void executorRemoved(String id, long nowMs) {
    if (policy != null) {
      policy.executorRemoved(id, nowMs);
    }
  }

  int batchesDone() {
    return batchesDone;
  }

  int tasksSubmitted() {
    return tasksInBatches;
  }

  /** Batches done and planned, the batch interval, the policy, and the last batch's figures: the status page's. */
  java.util.Map<String, Object> status(String policyName) {
    java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
    m.put("batches_done", batchesDone());
    m.put("batches", batches());
    m.put("batch_ms", batchMs());
    m.put("policy", policyName);
    BatchStats b = lastBatch();
    if (b != null) {
      m.put("last_batch", java.util.Map.of("batch", b.batch(), "processing_ms", b.processingMs(), "scheduling_delay_ms",
          b.schedulingDelayMs(), "records", b.records(), "executors", b.executors()));
    }
    return m;
  }

  /** The last completed batch, or null. */
  BatchStats lastBatch() {
    return last;
  }

  long batchMs() {
    return plan.batchMs();
  }

  int batches() {
    return plan.batches();
  }
}
