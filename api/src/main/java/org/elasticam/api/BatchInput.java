package org.elasticam.api;

/**
 * What one micro-batch of a {@link StreamingJob} processes.
 *
 * @param batch the batch's number, from 0
 * @param fromMs the start of its input interval, in ms since the stream started
 * @param toMs the end of its input interval (exclusive); the batch is due at this time
 * @param records the records that arrived in the interval
 * @param partitions how many tasks to split it into: {@code --partitions}, or twice the executors
 *     registered when the batch starts
 */
public record BatchInput(int batch, long fromMs, long toMs, long records, int partitions) {

  public BatchInput {
    if (batch < 0 || toMs < fromMs || records < 0 || partitions < 1) {
      throw new IllegalArgumentException("invalid batch input: batch " + batch + ", [" + fromMs + ", " + toMs
          + "), " + records + " records, " + partitions + " partitions");
    }
  }
}
