package org.elasticam.allocator.streaming;

import static org.elasticam.allocator.streaming.StreamingPolicies.num;

import java.util.List;
import java.util.Random;

/**
 * Spark Streaming's DStreams {@code ExecutorAllocationManager}, decision for decision, for comparison.
 * It acts on a timer only (the tick); before a batch it does nothing.
 *
 * <p>Each completed batch adds its processing time to a sum and a count (failed batches are
 * ignored). Every {@code scalingIntervalMs}, counted from the first tick, when at least one batch
 * completed: ratio = (sum / count) / D, with D the batch interval and the mean in whole milliseconds
 * (Spark divides two longs). Then
 *
 * <ul>
 *   <li>ratio ≥ {@code scalingUpRatio}: n = max(Math.round(ratio), 1), rounding halves up (2.5 → +3);
 *       target = max(min(maxExecutors, E + n), minExecutors), with E the current executors. Like
 *       Spark it counts from the executors there, not from the target, so an ask still outstanding
 *       can be lowered.</li>
 *   <li>ratio ≤ {@code scalingDownRatio}: when E &gt; minExecutors, one executor chosen uniformly at
 *       random (from the {@link Random} given) is removed and the target becomes E − 1.</li>
 * </ul>
 *
 * The sum and count start again after every evaluation, whether or not it acted. A tick that comes
 * late evaluates once and skips the evaluations it missed; Spark's timer would run them back to
 * back, on the same (reset) sums, so all but the first would do nothing anyway.
 */
public final class RatioPolicy extends FleetPolicy {

  private static final long NOT_STARTED = Long.MIN_VALUE;

  private final Random random;
  private long nextEvaluationMs = NOT_STARTED;
  private long processingSumMs;
  private long batches;

  public RatioPolicy(StreamingSettings settings, Random random) {
    super(settings);
    this.random = random;
  }

  @Override
  public String name() {
    return "ratio";
  }

  @Override
  public void batchCompleted(BatchStats batch, long nowMs) {
    if (!batch.failed()) {
      processingSumMs += batch.processingMs();
      batches++;
    }
  }

  @Override
  public StreamingDecision beforeBatch(int batch, long nowMs) {
    return StreamingDecision.none(target, "");
  }

  @Override
  public StreamingDecision tick(long nowMs) {
    if (nextEvaluationMs == NOT_STARTED) {
      nextEvaluationMs = nowMs + s.scalingIntervalMs();
      return StreamingDecision.none(target, "");
    }
    if (nowMs < nextEvaluationMs) {
      return StreamingDecision.none(target, "");
    }
    while (nextEvaluationMs <= nowMs) {
      nextEvaluationMs += s.scalingIntervalMs();
    }
    StreamingDecision decision = evaluate();
    processingSumMs = 0;
    batches = 0;
    return decision;
  }

  /** For tests: when the next evaluation is due, Long.MIN_VALUE before the first tick. */
  long nextEvaluationMs() {
    return nextEvaluationMs;
  }

  private StreamingDecision evaluate() {
    int current = executors.current();
    if (batches == 0) {
      return StreamingDecision.none(target, "batches=0 current=" + current + " target=" + target);
    }
    long meanMs = processingSumMs / batches;
    double ratio = (double) meanMs / s.batchMs();
    String inputs = "batches=" + batches + " meanProcessingMs=" + meanMs + " batchMs=" + s.batchMs() + " ratio="
        + num(ratio) + " up=" + num(s.scalingUpRatio()) + " down=" + num(s.scalingDownRatio()) + " current="
        + current + " target=" + target;
    String measured = batches + " batch(es) averaged " + meanMs + " ms of a " + s.batchMs() + " ms interval (ratio "
        + num(ratio);
    int previous = target;
    if (ratio >= s.scalingUpRatio()) {
      long add = Math.max(Math.round(ratio), 1);
      target = (int) Math.max(Math.min(s.maxExecutors(), current + add), s.minExecutors());
      if (target == previous) {
        return StreamingDecision.none(target, inputs);
      }
      return new StreamingDecision(target, previous, List.of(), measured + " >= " + num(s.scalingUpRatio())
          + "): " + current + " executors + " + add + ": target " + target, inputs);
    }
    if (ratio <= s.scalingDownRatio() && current > s.minExecutors()) {
      String removed = executors.takeRandom(random);
      target = StreamingPolicies.clamp(current - 1, s);
      return new StreamingDecision(target, previous, List.of(removed), measured + " <= "
          + num(s.scalingDownRatio()) + "): remove executor " + removed + " of " + current + ", target " + target,
          inputs);
    }
    return StreamingDecision.none(target, inputs);
  }
}
