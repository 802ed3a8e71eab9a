package org.elasticam.io;

import java.util.Map;
import org.elasticam.api.TaskContext;

/**
 * A byte range of one file, the input of one task. A split owns the records that begin inside
 * it; a record that begins inside and ends past its end is read whole by this split, and skipped by
 * the next one.
 *
 * @param path the file, a qualified URI
 * @param start its first byte
 * @param length its bytes; a split of a file that cannot be split (compressed whole) covers all of it
 */
public record FileSplit(String path, long start, long length) {

  /** The task parameters a split travels in. */
  public static final String PATH = "input.path";
  public static final String START = "input.start";
  public static final String LENGTH = "input.length";

  public FileSplit {
    if (path == null || path.isBlank()) {
      throw new IllegalArgumentException("a split without a path");
    }
    if (start < 0 || length < 0) {
      throw new IllegalArgumentException("a split of " + path + " at " + start + " of " + length + " bytes");
    }
  }

  /** The byte after the split. */
  public long end() {
    return start + length;
  }

  /**
   * The split of a task planned by {@link FileInputs}.
   *
   * @throws IllegalArgumentException when the task's parameters name no split
   */
  public static FileSplit of(TaskContext context) {
    return of(context.params());
  }

  /** The split in task parameters {@link #params} wrote. */
  public static FileSplit of(Map<String, String> params) {
    String path = params.get(PATH);
    String start = params.get(START);
    String length = params.get(LENGTH);
    if (path == null || start == null || length == null) {
      throw new IllegalArgumentException("the task's parameters name no input split (" + PATH + ", " + START + ", "
          + LENGTH + "): was it planned with FileInputs?");
    }
    try {
      return new FileSplit(path, Long.parseLong(start), Long.parseLong(length));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("an input split's bounds are not numbers: " + start + ", " + length);
    }
  }

  /** The split as task parameters. */
  public Map<String, String> params() {
    return Map.of(PATH, path, START, String.valueOf(start), LENGTH, String.valueOf(length));
  }
}
