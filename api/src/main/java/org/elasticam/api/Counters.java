package org.elasticam.api;

/**
 * Counter names and the rules for them. A task attempt counts with {@link TaskContext#counter(String)};
 * when the attempt succeeds its counters go to the driver with its end, the event log's
 * {@code task_end} carries them, and {@code stage_completed} carries each stage's sums over one
 * successful attempt per task (the attempt whose output the job uses), which {@code history} and
 * the live page show. A failed or killed attempt's counters are dropped, as its output is.
 *
 * <p>Built-in names: the executor counts the shuffle itself, under {@code shuffle.}, a prefix tasks
 * may not use; the input and output names are for code that reads and writes files, the API's
 * helpers and your own, counted through {@link TaskContext#counter(String)} like any other.
 *
 * <p>Limits, because counters travel to the driver over the control plane: a name has 1 to
 * {@link #MAX_NAME_CHARS} characters, none of them a control character, and an attempt uses at
 * most {@link #MAX_PER_TASK} names; {@link TaskContext#counter(String)} throws beyond them.
 */
public final class Counters {

  /** Records the attempt wrote to its shuffle output. */
  public static final String SHUFFLE_RECORDS_WRITTEN = "shuffle.records.written";
  /**
   * Bytes of those records as the shuffle stores them (each key and value with its lengths): the
   * sum of the attempt's partition blocks.
   */
  public static final String SHUFFLE_BYTES_WRITTEN = "shuffle.bytes.written";
  /** Records the attempt consumed from its shuffle inputs (those {@link ShuffleInput#next()} moved to). */
  public static final String SHUFFLE_RECORDS_READ = "shuffle.records.read";
  /** Bytes of those records, counted as {@link #SHUFFLE_BYTES_WRITTEN} counts them. */
  public static final String SHUFFLE_BYTES_READ = "shuffle.bytes.read";
  /** Records read from input files. */
  public static final String INPUT_RECORDS = "input.records";
  /** Bytes read from input files. */
  public static final String INPUT_BYTES = "input.bytes";
  /** Records written to output files. */
  public static final String OUTPUT_RECORDS = "output.records";
  /** Bytes written to output files. */
  public static final String OUTPUT_BYTES = "output.bytes";

  /** The prefix of the names the executor counts; a task's own counters may not use it. */
  public static final String RESERVED_PREFIX = "shuffle.";
  /** The longest counter name. */
  public static final int MAX_NAME_CHARS = 128;
  /** The most counter names one attempt may use, built-in ones included. */
  public static final int MAX_PER_TASK = 64;

  private Counters() {}

  /**
   * Checks a counter name against the rules above (not the reserved prefix, which only
   * {@link TaskContext#counter(String)} refuses).
   *
   * @throws IllegalArgumentException naming the rule it breaks
   */
  public static String checkName(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("a counter name is empty");
    }
    if (name.length() > MAX_NAME_CHARS) {
      throw new IllegalArgumentException("counter name of " + name.length() + " characters, over the "
          + MAX_NAME_CHARS + " allowed: " + name.substring(0, 40) + "…");
    }
    for (int i = 0; i < name.length(); i++) {
      if (Character.isISOControl(name.charAt(i))) {
        throw new IllegalArgumentException("counter name with a control character: " + name.replaceAll("\\p{Cntrl}",
            "?"));
      }
    }
    return name;
  }
}
