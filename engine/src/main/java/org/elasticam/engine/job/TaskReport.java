package org.elasticam.engine.job;

import java.util.List;

/**
 * An executor's report on one task attempt.
 *
 * @param shufflePort where its shuffle output is served, for a map task that succeeded
 * @param fetchFailure what could not be fetched, for {@link State#FETCH_FAILED}; else null
 */
public record TaskReport(long taskId, State state, String error, int shufflePort, FetchFailure fetchFailure) {

  public enum State { RUNNING, SUCCEEDED, FAILED, KILLED, FETCH_FAILED }

  /** Map outputs of {@code shuffleId} that {@code executorId}'s server could not give. */
  public record FetchFailure(int shuffleId, String executorId, List<Integer> maps, String message) {
    public FetchFailure {
      maps = List.copyOf(maps);
    }
  }
}
