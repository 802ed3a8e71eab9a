package org.elasticam.engine.job;

import java.util.List;
import java.util.Map;

/**
 * An executor's report on one task attempt.
 *
 * @param shufflePort where its shuffle output is served, for a map task that succeeded
 * @param fetchFailure what could not be fetched, for {@link State#FETCH_FAILED}; else null
 * @param counters the attempt's counters by name (org.elasticam.api.Counters): a successful
 *     attempt's; empty for others, and from a simulated executor
 */
public record TaskReport(long taskId, State state, String error, int shufflePort, FetchFailure fetchFailure,
    Map<String, Long> counters) {

  public TaskReport {
    counters = Map.copyOf(counters);
  }

  /** A report without counters. */
  public TaskReport(long taskId, State state, String error, int shufflePort, FetchFailure fetchFailure) {
    this(taskId, state, error, shufflePort, fetchFailure, Map.of());
  }

  public enum State { RUNNING, SUCCEEDED, FAILED, KILLED, FETCH_FAILED }

  /** Map outputs of {@code shuffleId} that {@code executorId}'s server could not give. */
  public record FetchFailure(int shuffleId, String executorId, List<Integer> maps, String message) {
    public FetchFailure {
      maps = List.copyOf(maps);
    }
  }
}
