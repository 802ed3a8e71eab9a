package org.elasticam.sim;

import org.elasticam.report.Timeline;
import java.math.BigDecimal;
import java.util.List;

/**
 * The figures of one simulated run, under the names {@code --json} prints them with.
 *
 * @param makespanMs from the trace's start to its last task's end
 * @param executorMs executor-seconds (DESIGN §3), in milliseconds
 * @param idleExecutorMs the part of {@code executorMs} when the executor ran no task
 * @param timeToFullParallelismMs median over stages, see {@link StageParallelism}
 * @param peakExecutors most executors held at once, started or starting
 * @param timeline the run over time, for the CSV and the chart
 */
record SimResult(String policy, String trace, long makespanMs, long executorMs, long idleExecutorMs,
    long timeToFullParallelismMs, int peakExecutors, int requestsAdded, int requestsCancelled, int executorsKilled,
    List<Timeline.Row> timeline) {

  SimResult {
    timeline = List.copyOf(timeline);
  }

  /** Exact seconds with millisecond precision, never in exponent form: 48.000, 0.250. */
  static BigDecimal seconds(long ms) {
    return BigDecimal.valueOf(ms, 3);
  }

  BigDecimal executorSeconds() {
    return seconds(executorMs);
  }

  BigDecimal idleExecutorSeconds() {
    return seconds(idleExecutorMs);
  }
}
