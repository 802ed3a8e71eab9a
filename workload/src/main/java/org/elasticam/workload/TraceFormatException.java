package org.elasticam.workload;

import java.nio.file.Path;

/**
 * A trace file that cannot be replayed: where, and one line saying why. The message is meant for
 * a user as it is ({@code q72.trace.jsonl:12: tasks[3].duration_ms: must not be negative, got -5}).
 */
public final class TraceFormatException extends Exception {

  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final long line;
  private final String reason;

  /**
   * @param line the 1-based line at fault, or 0 when the problem is the file as a whole
   */
  public TraceFormatException(Path file, long line, String reason) {
    super(render(file, line, reason));
    this.file = file;
    this.line = line;
    this.reason = reason;
  }

  public Path file() {
    return file;
  }

  /** The 1-based line at fault, or 0 when the problem is the file as a whole (an empty file). */
  public long line() {
    return line;
  }

  public String reason() {
    return reason;
  }

  private static String render(Path file, long line, String reason) {
    return line > 0 ? file + ":" + line + ": " + reason : file + ": " + reason;
  }
}
