package org.elasticam.allocator.streaming;

import java.util.List;

/**
 * A streaming policy's decision: the executor target, which executors to remove (they get no new
 * tasks and go once idle), why, and the inputs it was made from (for the debug log).
 */
public record StreamingDecision(int target, int previousTarget, List<String> remove, String reason, String inputs) {

  public StreamingDecision {
    remove = List.copyOf(remove);
  }

  /** Nothing changes. */
  public static StreamingDecision none(int target, String inputs) {
    return new StreamingDecision(target, target, List.of(), "", inputs);
  }

  public boolean targetChanged() {
    return target != previousTarget;
  }

  public boolean isEmpty() {
    return !targetChanged() && remove.isEmpty();
  }
}
