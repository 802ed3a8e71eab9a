package org.elasticam.workload;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A workload trace read from a {@code <name>.trace.jsonl} file: one JSON object per line, each a
 * Spark stage attempt (the format is described in {@code eventlogs/README.md}).
 *
 * <p>Reading checks everything the replay relies on and stops at the first problem with a
 * {@link TraceFormatException} naming the line. Blank lines are skipped; fields the replay does
 * not use ({@code job_ids}, {@code num_tasks}, {@code failure}, {@code run_ms}, ...) and unknown
 * fields are ignored. Where the generator writes null because the log lacked a value: a null
 * {@code name}, {@code host} or {@code locality} reads as empty (an empty host is no locality
 * preference); a null {@code submit_ms} becomes the stage's earliest task launch, and a null
 * {@code complete_ms} its latest task finish (or its submit time when it has no task).
 *
 * <p>Refused: malformed JSON, a line that is not one object, a duplicate key, a missing field or
 * one of the wrong type, negative numbers, times beyond 2^53 ms, {@code complete_ms} before
 * {@code submit_ms}, a status other than {@code SUCCESS}, {@code KILLED} or
 * {@code FAILED[:reason]}, the same stage attempt twice, a line over 64 MiB, a file without any
 * stage attempt, and stages whose parents and times contradict each other so that a replay could
 * never submit them.
 */
public final class Trace {

  private static final int STAGES_NAMED_IN_ERRORS = 5;

  private final List<TraceStage> stageAttempts;
  private final StageGraph graph;

  private Trace(List<TraceStage> stageAttempts, StageGraph graph) {
    this.stageAttempts = List.copyOf(stageAttempts);
    this.graph = graph;
  }

  public static Trace read(Path file) throws TraceFormatException, IOException {
    return read(file, LineReader.MAX_LINE_BYTES);
  }

  /** As {@link #read(Path)}, with another bound on the length of a line. */
  static Trace read(Path file, int maxLineBytes) throws TraceFormatException, IOException {
    List<TraceStage> attempts = new ArrayList<>();
    Map<Integer, Long> firstLine = new HashMap<>();
    try (InputStream in = Files.newInputStream(file)) {
      readLines(new LineReader(in, maxLineBytes), file, attempts, firstLine);
    }
    if (attempts.isEmpty()) {
      throw new TraceFormatException(file, 0, "no stage attempt in the file (it is empty or blank)");
    }
    StageGraph graph = StageGraph.of(attempts);
    List<Integer> unreachable = graph.unreachable();
    if (!unreachable.isEmpty()) {
      throw new TraceFormatException(file, firstLine.get(unreachable.get(0)),
          describeUnreachable(unreachable));
    }
    return new Trace(attempts, graph);
  }

  /**
   * A trace built in memory (a synthetic workload) rather than read from a file: the same checks
   * on how its stages wait for each other as {@link #read}; the records check their own fields.
   *
   * @throws IllegalArgumentException when there is no stage attempt, one appears twice, or stages
   *     could never be submitted
   */
  public static Trace of(List<TraceStage> stageAttempts) {
    if (stageAttempts.isEmpty()) {
      throw new IllegalArgumentException("no stage attempt");
    }
    Map<List<Integer>, Boolean> seen = new HashMap<>();
    for (TraceStage s : stageAttempts) {
      if (seen.put(List.of(s.stageId(), s.attempt()), true) != null) {
        throw new IllegalArgumentException("stage " + s.stageId() + " attempt " + s.attempt() + " appears twice");
      }
    }
    StageGraph graph = StageGraph.of(stageAttempts);
    List<Integer> unreachable = graph.unreachable();
    if (!unreachable.isEmpty()) {
      throw new IllegalArgumentException(describeUnreachable(unreachable));
    }
    return new Trace(stageAttempts, graph);
  }

  /** The stage attempts in file order. */
  public List<TraceStage> stageAttempts() {
    return stageAttempts;
  }

  StageGraph graph() {
    return graph;
  }

  private static void readLines(LineReader lines, Path file, List<TraceStage> attempts,
      Map<Integer, Long> firstLine) throws IOException, TraceFormatException {
    Map<List<Integer>, Long> seen = new HashMap<>();
    try {
      while (lines.next()) {
        if (lines.isBlank()) {
          continue;
        }
        TraceStage stage = StageAttemptParser.parse(lines.bytes(), lines.length());
        Long earlier = seen.putIfAbsent(List.of(stage.stageId(), stage.attempt()), lines.number());
        if (earlier != null) {
          throw new TraceProblem("stage " + stage.stageId() + " attempt " + stage.attempt()
              + " already appeared on line " + earlier);
        }
        firstLine.putIfAbsent(stage.stageId(), lines.number());
        attempts.add(stage);
      }
    } catch (TraceProblem problem) {
      throw new TraceFormatException(file, lines.number(), problem.getMessage());
    }
  }

  private static String describeUnreachable(List<Integer> stageIds) {
    String named = stageIds.stream().limit(STAGES_NAMED_IN_ERRORS).map(String::valueOf)
        .collect(Collectors.joining(", "));
    String more = stageIds.size() > STAGES_NAMED_IN_ERRORS
        ? " and " + (stageIds.size() - STAGES_NAMED_IN_ERRORS) + " more"
        : "";
    return (stageIds.size() == 1 ? "stage " : "stages ") + named + more
        + " could never be submitted: their parents and times contradict each other"
        + " (a stage would wait for itself)";
  }
}
