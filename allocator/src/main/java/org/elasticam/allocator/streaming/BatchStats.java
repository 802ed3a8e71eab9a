package org.elasticam.allocator.streaming;

/**
 * How one micro-batch went.
 *
 * @param batch the batch's number, from 0
 * @param batchTimeMs the end of the interval whose input it processes: when it was due to start
 * @param submittedAtMs when its job was submitted: at its batch time, or later when the batch
 *     before it ran late
 * @param completedAtMs when its last task finished
 * @param records input records the batch processed
 * @param executors executors registered when it was submitted
 * @param failed whether any of its stages failed (a failed batch says nothing about capacity)
 */
public record BatchStats(int batch, long batchTimeMs, long submittedAtMs, long completedAtMs, long records,
    int executors, boolean failed) {

  public BatchStats {
    if (submittedAtMs < batchTimeMs || completedAtMs < submittedAtMs) {
      throw new IllegalArgumentException("batch " + batch + ": times out of order: due " + batchTimeMs
          + ", submitted " + submittedAtMs + ", completed " + completedAtMs);
    }
  }

  /** From submission to the end of its last task. */
  public long processingMs() {
    return completedAtMs - submittedAtMs;
  }

  /** How long it waited for the batch before it. */
  public long schedulingDelayMs() {
    return submittedAtMs - batchTimeMs;
  }

  /** Whether it fell behind: processing longer than the interval, or it could not start on time. */
  public boolean delayed(long batchIntervalMs) {
    return processingMs() > batchIntervalMs || schedulingDelayMs() > 0;
  }
}
