package org.elasticam.workload.stream;

import java.util.Objects;

/**
 * The work of each micro-batch of a streaming job, shared by the real job in the ApplicationMaster
 * and by the simulator so that both give a batch exactly the same tasks.
 *
 * <p>Batch i (from 0) processes the input that arrived in {@code [i·B, (i+1)·B)} and is due at
 * {@code (i+1)·B} from the stream's start; each record costs {@code workPerRecordUs} of CPU, split
 * evenly over the batch's tasks. Worked example: {@code const:100}, B = 2 s, 1000 µs a record, 4
 * partitions: batch 0 is due at 2000 ms with 200 records, 200,000 µs of work, 50 ms a task.
 */
public final class BatchLoad {

  private final RateProfile profile;
  private final long batchMs;
  private final long workPerRecordUs;

  /**
   * @param batchMs the batch interval B, above 0
   * @param workPerRecordUs CPU time per record, in microseconds, 0 or more
   */
  public BatchLoad(RateProfile profile, long batchMs, long workPerRecordUs) {
    this.profile = Objects.requireNonNull(profile, "profile");
    if (batchMs <= 0) {
      throw new IllegalArgumentException("batch interval must be above 0 ms: " + batchMs);
    }
    if (workPerRecordUs < 0) {
      throw new IllegalArgumentException("work per record must not be negative: " + workPerRecordUs + " us");
    }
    this.batchMs = batchMs;
    this.workPerRecordUs = workPerRecordUs;
  }

  /**
   * The tasks of a batch: the configured count when given, else two per executor so that a batch
   * can spread over executors that arrive while it runs; at least one.
   */
  public static int partitions(Integer configured, int executors) {
    if (configured != null) {
      if (configured < 1) {
        throw new IllegalArgumentException("partitions must be at least 1: " + configured);
      }
      return configured;
    }
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, 2L * executors));
  }

  /** When the batch is due, in ms from the stream's start: the end of the interval it processes. */
  public long dueAtMs(int batch) {
    return Math.multiplyExact(batchMs, (long) requireBatch(batch) + 1);
  }

  /** The records that arrived during the batch's interval. */
  public long records(int batch) {
    long due = dueAtMs(batch);
    return profile.records(due - batchMs, due);
  }

  /** The batch's whole work: records × work per record. */
  public long totalWorkUs(int batch) {
    return Math.multiplyExact(records(batch), workPerRecordUs);
  }

  /**
   * How long each of the batch's {@code partitions} tasks runs: its equal share of the work,
   * rounded to the nearest ms, but at least 1 ms when there is input (an empty-looking task still
   * has to run) and 0 when there is none.
   */
  public long taskMs(int batch, int partitions) {
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be at least 1: " + partitions);
    }
    if (records(batch) == 0) {
      return 0;
    }
    long work = totalWorkUs(batch);
    long perTaskUnit = partitions * 1000L;
    long share = work / perTaskUnit;
    // Round half up with integers: a double would drift on large totals.
    if (2 * (work % perTaskUnit) >= perTaskUnit) {
      share++;
    }
    return Math.max(1, share);
  }

  public RateProfile profile() {
    return profile;
  }

  public long batchMs() {
    return batchMs;
  }

  public long workPerRecordUs() {
    return workPerRecordUs;
  }

  private static int requireBatch(int batch) {
    if (batch < 0) {
      throw new IllegalArgumentException("batch number must not be negative: " + batch);
    }
    return batch;
  }

  @Override
  public String toString() {
    return "BatchLoad[" + profile + ", batch " + batchMs + " ms, " + workPerRecordUs + " us/record]";
  }
}
