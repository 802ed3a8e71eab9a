package org.elasticam.workload;

/**
 * A reason why the line being read is unusable. Internal: {@link Trace#read} adds the file and
 * line number and rethrows it as a {@link TraceFormatException}, which is what callers see.
 */
final class TraceProblem extends RuntimeException {

  private static final long serialVersionUID = 1L;

  TraceProblem(String reason) {
    // A user reads the reason; the stack trace would only cost time on hostile input.
    super(reason, null, false, false);
  }
}
