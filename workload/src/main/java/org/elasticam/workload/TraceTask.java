package org.elasticam.workload;

import java.util.Objects;

/**
 * One task attempt as the trace recorded it. Times are milliseconds from application start.
 *
 * @param host the executor's host, empty when the log did not record one
 * @param locality {@code PROCESS_LOCAL}, {@code NODE_LOCAL}, {@code RACK_LOCAL} or {@code ANY};
 *     empty when not recorded
 * @param status {@code SUCCESS}, {@code KILLED} or {@code FAILED:<reason>}
 */
public record TraceTask(
    int index,
    int attempt,
    long launchMs,
    long durationMs,
    String host,
    String locality,
    boolean speculative,
    String status) {

  public static final String SUCCESS = "SUCCESS";

  public TraceTask {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(locality, "locality");
    Objects.requireNonNull(status, "status");
  }

  public boolean succeeded() {
    return SUCCESS.equals(status);
  }
}
