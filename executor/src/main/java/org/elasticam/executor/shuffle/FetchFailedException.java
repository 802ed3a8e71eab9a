package org.elasticam.executor.shuffle;

import java.io.IOException;
import java.util.List;

/**
 * Map output a reduce task needs could not be had: missing, corrupt, or its server unreachable
 * after the client's retries. The task ends as a fetch failure, and the driver re-runs exactly
 * these map tasks instead of counting a task failure.
 */
public final class FetchFailedException extends IOException {

  private static final long serialVersionUID = 1L;

  private final int shuffleId;
  private final String executorId;
  private final List<Integer> mapIds;

  public FetchFailedException(int shuffleId, String executorId, List<Integer> mapIds, String message, Throwable cause) {
    super(message, cause);
    this.shuffleId = shuffleId;
    this.executorId = executorId;
    this.mapIds = List.copyOf(mapIds);
  }

  public int shuffleId() {
    return shuffleId;
  }

  /** The executor whose output it was. */
  public String executorId() {
    return executorId;
  }

  public List<Integer> mapIds() {
    return mapIds;
  }
}
