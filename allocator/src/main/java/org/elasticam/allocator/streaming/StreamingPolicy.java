package org.elasticam.allocator.streaming;

/**
 * A streaming dynamic-allocation policy. The driver tells it which executors are registered and how
 * each batch went; before each batch's job is submitted, and on its 100 ms tick, it asks for a
 * decision and applies it at once. Executors the policy chose to remove stay registered until the
 * driver reports them removed, but the policy no longer counts them.
 */
public interface StreamingPolicy {

  /** {@code rounds}, {@code ratio} or {@code model}, as the event log names it. */
  String name();

  void executorAdded(String executorId, long nowMs);

  void executorRemoved(String executorId, long nowMs);

  void batchCompleted(BatchStats batch, long nowMs);

  /** Just before batch {@code batch}'s job is submitted. */
  StreamingDecision beforeBatch(int batch, long nowMs);

  /** The driver's 100 ms tick; for policies that act on a timer rather than per batch. */
  StreamingDecision tick(long nowMs);

  int target();
}
