package org.elasticam.engine.job;

import java.util.ArrayList;
import java.util.List;
import org.elasticam.api.BatchInput;
import org.elasticam.api.Stage;
import org.elasticam.api.StreamingJob;
import org.elasticam.workload.stream.BatchLoad;
import org.elasticam.engine.job.JobPlan;

/**
 * A streaming job: {@code batches} micro-batches, one every {@code batchMs}, each the stages a
 * {@link StreamingJob} makes of that interval's input. Unlike a {@link DagPlan} its stages cannot
 * be known ahead: a batch is sized by the executors live when it starts, after the streaming
 * policy has decided, so the driver runs the batches itself and asks this plan for each one's
 * stages. {@link #start} and {@link #stageCompleted} therefore submit nothing.
 */
public final class StreamingPlan implements JobPlan {

  /** Application-wide stage id = batch × this + the batch's own id. */
  public static final int STAGE_ID_STRIDE = 1000;

  private final StreamingJob job;
  private final BatchLoad load;
  private final int batches;
  private final Integer partitions;
  private final String rate;

  /**
   * @param partitions tasks per batch, or null for twice the live executors
   * @param rate the rate profile as the user gave it, for logs
   */
  public StreamingPlan(StreamingJob job, BatchLoad load, int batches, Integer partitions, String rate) {
    this.job = job;
    this.load = load;
    this.batches = batches;
    this.partitions = partitions;
    this.rate = rate;
  }

  public int batches() {
    return batches;
  }

  public long batchMs() {
    return load.batchMs();
  }

  public String rate() {
    return rate;
  }

  /** When batch {@code batch} is due, in ms after the stream started. */
  public long dueAtMs(int batch) {
    return load.dueAtMs(batch);
  }

  /**
   * The stages of one batch, with application-wide ids.
   *
   * @param liveExecutors executors registered as it starts, for the default partition count
   * @throws Exception when the job fails to make them; the message is for the user
   */
  public List<Stage> batch(int batch, int liveExecutors) throws Exception {
    BatchInput in = new BatchInput(batch, load.dueAtMs(batch) - load.batchMs(), load.dueAtMs(batch),
        load.records(batch), BatchLoad.partitions(partitions, liveExecutors));
    List<Stage> own = job.batch(in);
    if (own == null || own.isEmpty()) {
      throw new IllegalArgumentException("the streaming job made no stages for batch " + batch);
    }
    int base = batch * STAGE_ID_STRIDE;
    List<Stage> out = new ArrayList<>();
    for (Stage s : own) {
      if (s.output() != null) {
        throw new IllegalArgumentException("batch " + batch + ": stage " + s.id() + " (" + s.name() + ") declares an"
            + " output directory, which only a batch job commits: a streaming task publishes its output itself,"
            + " after TaskContext.canCommit()");
      }
      if (s.id() >= STAGE_ID_STRIDE) {
        throw new IllegalArgumentException("batch " + batch + ": stage id " + s.id() + " is not below "
            + STAGE_ID_STRIDE);
      }
      List<Integer> parents = s.parents().stream().map(p -> {
        if (p >= STAGE_ID_STRIDE) {
          throw new IllegalArgumentException("batch " + batch + ": stage " + s.id() + " names parent " + p
              + ", which is not below " + STAGE_ID_STRIDE);
        }
        return base + p;
      }).toList();
      out.add(new Stage(base + s.id(), "batch " + batch + ": " + s.name(), parents, s.taskClass(), s.tasks(),
          s.shufflePartitions(), s.shuffle()));
    }
    return out;
  }

  /** The records of batch {@code batch}. */
  public long records(int batch) {
    return load.records(batch);
  }

  /** Each batch's stages are made when it starts: the run cleans a batch's shuffles once the batch is done. */
  @Override
  public int readersOf(int stageId) {
    return -1;
  }

  @Override
  public List<Submission> start(long nowMs) {
    return List.of();
  }

  @Override
  public List<Submission> stageCompleted(int stageId, long nowMs) {
    return List.of();
  }

  /** Unknown ahead: batches are sized as they start. */
  @Override
  public int totalTasks() {
    return 0;
  }

  @Override
  public int totalStages() {
    return 0;
  }
}
