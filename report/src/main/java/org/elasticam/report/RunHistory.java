package org.elasticam.report;

import static org.elasticam.report.events.EventFields.APP_ID;
import static org.elasticam.report.events.EventFields.ATTEMPT;
import static org.elasticam.report.events.EventFields.BATCH;
import static org.elasticam.report.events.EventFields.COUNTED_AS_FAILURE;
import static org.elasticam.report.events.EventFields.COUNTERS;
import static org.elasticam.report.events.EventFields.DIAGNOSTICS;
import static org.elasticam.report.events.EventFields.DURATION_MS;
import static org.elasticam.report.events.EventFields.ERROR;
import static org.elasticam.report.events.EventFields.EVENT;
import static org.elasticam.report.events.EventFields.EXECUTOR_ID;
import static org.elasticam.report.events.EventFields.EXECUTOR_SECONDS;
import static org.elasticam.report.events.EventFields.EXIT_STATUS;
import static org.elasticam.report.events.EventFields.FAILED;
import static org.elasticam.report.events.EventFields.FINAL_STATUS;
import static org.elasticam.report.events.EventFields.HOST;
import static org.elasticam.report.events.EventFields.LOCALITY;
import static org.elasticam.report.events.EventFields.NAME;
import static org.elasticam.report.events.EventFields.REASON;
import static org.elasticam.report.events.EventFields.SPECULATIVE;
import static org.elasticam.report.events.EventFields.STAGE_ID;
import static org.elasticam.report.events.EventFields.STATUS;
import static org.elasticam.report.events.EventFields.SUPERSEDED;
import static org.elasticam.report.events.EventFields.TARGET;
import static org.elasticam.report.events.EventFields.TASK;
import static org.elasticam.report.events.EventFields.TASKS;
import static org.elasticam.report.events.EventFields.TS;
import static org.elasticam.report.events.EventFields.WON_OVER_ATTEMPTS;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.elasticam.report.events.Event;

/**
 * One run, read back from its event log (DESIGN §3) — the AM's or the simulator's, which write the
 * same events: what the executors did, what the tasks did, and the target over time. Pure: lines
 * in, figures out; {@link RunReport} renders them.
 *
 * <p>A task ran from its {@code task_start} (or, in logs without one, {@code ts - duration_ms} of its
 * {@code task_end}) to its {@code task_end}; one started and not ended is running at the log's last
 * time. Pending tasks over time are the tasks of submitted stages (plus failed attempts, which run
 * again) not yet started. An executor is held from {@code executor_launched} to
 * {@code executor_removed} (or the log's end); idle while held and running no task. A stage's
 * counters are those of its last {@code stage_completed}, or, before it completes, the sums so far
 * of its successful attempts' {@code task_end} counters, one attempt per task; logs without counters
 * have none.
 */
public final class RunHistory {

  /** A line that is not an event: the report names it instead of guessing. */
  public static final class BadEventLogException extends Exception {
    BadEventLogException(String message) {
      super(message);
    }
  }

  /** @param error a failed attempt's one-line error (exception and the task's own frame), else empty */
  public record Task(int stageId, int index, String executorId, String host, String locality, long startMs, long endMs,
      String status, String error) {}

  public static final class Executor {
    final String id;
    String host = "";
    long launchedMs = -1;
    long removedMs = -1;
    String removalReason = "";
    Integer exitStatus;
    boolean countedAsFailure;
    final List<Task> tasks = new ArrayList<>();
    final Map<String, Task> running = new LinkedHashMap<>();

    Executor(String id) {
      this.id = id;
    }

    public String id() {
      return id;
    }

    public String host() {
      return host;
    }

    public long launchedMs() {
      return launchedMs;
    }

    /** When it was removed, or -1 while held. */
    public long removedMs() {
      return removedMs;
    }

    public String removalReason() {
      return removalReason;
    }

    /** The container's exit status when logged, else null. */
    public Integer exitStatus() {
      return exitStatus;
    }

    /** Attempts that ended on it. */
    public int taskCount() {
      return tasks.size();
    }

    /** Attempts running on it at the log's last time (endMs -1). */
    public List<Task> runningTasks() {
      return List.copyOf(running.values());
    }

    public long heldUntil(long endMs) {
      return removedMs >= 0 ? removedMs : endMs;
    }

    /** Milliseconds held with at least one task running. */
    public long busyMs(long endMs) {
      List<long[]> spans = new ArrayList<>();
      List<Task> all = new ArrayList<>(tasks);
      all.addAll(running.values());
      for (Task t : all) {
        long end = t.endMs() < 0 ? endMs : t.endMs();
        spans.add(new long[] {Math.max(t.startMs(), launchedMs), Math.min(end, heldUntil(endMs))});
      }
      spans.sort(Comparator.comparingLong(s -> s[0]));
      long busy = 0;
      long coveredTo = Long.MIN_VALUE;
      for (long[] s : spans) {
        long from = Math.max(s[0], coveredTo);
        if (s[1] > from) {
          busy += s[1] - from;
        }
        coveredTo = Math.max(coveredTo, s[1]);
      }
      return busy;
    }
  }

  public static final class Stage {
    final int id;
    String name = "";
    int tasks;
    long submittedMs = -1;
    long completedMs = -1;
    boolean failed;
    int resubmissions;
    /** The counters its last {@code stage_completed} gave, or null. */
    Map<String, Long> completedCounters;
    /** Each task's counters as its last successful, not superseded attempt reported them. */
    final Map<Integer, Map<String, Long>> taskCounters = new TreeMap<>();

    Stage(int id) {
      this.id = id;
    }

    public int id() {
      return id;
    }

    /** As the job named it; empty in logs without names. */
    public String name() {
      return name;
    }

    /**
     * Its counters by name, in name order: the sums its completion logged, or, while it runs, the
     * sums so far over its tasks' successful attempts; empty when none were logged.
     */
    public Map<String, Long> counters() {
      if (completedCounters != null) {
        return completedCounters;
      }
      Map<String, Long> sums = new TreeMap<>();
      taskCounters.values().forEach(c -> c.forEach((k, v) -> sums.merge(k, v, Long::sum)));
      return sums;
    }

    /** {@code stage 3 (map)}, or {@code stage 3} in logs without names. */
    public String label() {
      return name.isEmpty() ? "stage " + id : "stage " + id + " (" + name + ")";
    }

    public int tasks() {
      return tasks;
    }

    public long submittedMs() {
      return submittedMs;
    }

    /** When it completed, or -1. */
    public long completedMs() {
      return completedMs;
    }

    public boolean failed() {
      return failed;
    }
  }

  public record TargetChange(long timeMs, int target, String reason) {}

  /** Events the schema does not know, and fields their event does not declare ({@code event.field}). */
  private final java.util.Set<String> unknown = new java.util.TreeSet<>();
  String appId = "";
  int attempt;
  String finalStatus = "";
  String diagnostics = "";
  Double loggedExecutorSeconds;
  long startMs = -1;
  long endMs = -1;
  boolean ended;
  int skippedTornLine;
  final Map<String, Executor> executors = new LinkedHashMap<>();
  final Map<Integer, Stage> stages = new TreeMap<>();
  final List<Task> tasks = new ArrayList<>();
  final List<TargetChange> targets = new ArrayList<>();
  /** Attempts started and not yet ended, by stage/task/attempt; their endMs is -1. */
  final Map<String, Task> inFlight = new LinkedHashMap<>();
  final Map<String, Integer> nodesExcluded = new TreeMap<>();
  int fetchFailures;
  /** Speculation: slow tasks copied, and which attempt of them finished first. */
  int speculated;
  /** Streaming batches abandoned after a task failed for good, with why. */
  final List<String> failedBatches = new ArrayList<>();
  int copiesWon;
  int originalsWon;

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Reads a whole event log. A line cut short where the AM was killed mid-write (the last line, or
   * the one before a later attempt's {@code app_start}) is skipped and counted; anything else that
   * is not a JSON event fails with its line number.
   */
  public static RunHistory read(BufferedReader in) throws IOException, BadEventLogException {
    RunHistory h = new RunHistory();
    List<String> lines = new ArrayList<>();
    for (String line; (line = in.readLine()) != null; ) {
      lines.add(line);
    }
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank()) {
        continue;
      }
      JsonNode n;
      try {
        n = JSON.readTree(line);
      } catch (JsonProcessingException e) {
        if (i == lines.size() - 1 || nextAttemptStartsAt(lines, i + 1)) {
          h.skippedTornLine++;
          continue;
        }
        throw new BadEventLogException("line " + (i + 1) + " is not JSON: " + e.getOriginalMessage());
      }
      if (n == null || !n.isObject() || !n.path(TS).canConvertToLong() || !n.path(EVENT).isTextual()) {
        throw new BadEventLogException("line " + (i + 1) + " is not an event (an object with ts and event)");
      }
      h.apply(n);
    }
    if (h.startMs < 0) {
      throw new BadEventLogException("no events in the file");
    }
    return h;
  }

  /**
   * Whether a later AM attempt goes on at this line: the line cut short before it is where the
   * earlier attempt was killed, not damage.
   */
  private static boolean nextAttemptStartsAt(List<String> lines, int i) {
    if (i >= lines.size()) {
      return false;
    }
    try {
      return Event.byName(JSON.readTree(lines.get(i)).path(EVENT).asText()) == Event.APP_START;
    } catch (JsonProcessingException e) {
      return false;
    }
  }

  private void apply(JsonNode n) {
    long ts = n.get(TS).asLong();
    if (startMs < 0 || ts < startMs) {
      startMs = ts;
    }
    endMs = Math.max(endMs, ts);
    String name = n.get(EVENT).asText();
    Event event = Event.byName(name);
    if (event == null) {
      unknown.add(name);
      return;
    }
    for (String field : event.undeclared(() -> n.fieldNames())) {
      unknown.add(name + "." + field);
    }
    switch (event) {
      case APP_START -> {
        appId = n.path(APP_ID).asText("");
        attempt = n.path(ATTEMPT).asInt();
      }
      case TARGET_CHANGED -> targets.add(new TargetChange(ts, n.path(TARGET).asInt(), n.path(REASON).asText("")));
      case EXECUTOR_LAUNCHED -> {
        Executor e = executor(n);
        e.launchedMs = ts;
        e.host = n.path(HOST).asText(e.host);
      }
      case EXECUTOR_REGISTERED -> {
        Executor e = executor(n);
        if (e.launchedMs < 0) {
          e.launchedMs = ts;
        }
        e.host = n.path(HOST).asText(e.host);
      }
      case EXECUTOR_REMOVED -> {
        Executor e = executor(n);
        e.removedMs = ts;
        e.removalReason = n.path(REASON).asText("");
        e.exitStatus = n.path(EXIT_STATUS).canConvertToInt() ? n.path(EXIT_STATUS).asInt() : null;
        e.countedAsFailure = n.path(COUNTED_AS_FAILURE).asBoolean(false);
      }
      case STAGE_SUBMITTED -> {
        Stage s = stage(n);
        if (s.submittedMs < 0) {
          s.submittedMs = ts;
          s.tasks = n.path(TASKS).asInt();
          s.name = n.path(NAME).asText("");
        }
      }
      case STAGE_RESUBMITTED -> stage(n).resubmissions++;
      case STAGE_COMPLETED -> {
        Stage s = stage(n);
        s.completedMs = ts;
        s.failed = n.path(FAILED).asBoolean(false);
        if (n.path(COUNTERS).isObject()) {
          s.completedCounters = counters(n.path(COUNTERS));
        }
      }
      case TASK_START -> {
        Task t = new Task(n.path(STAGE_ID).asInt(), n.path(TASK).asInt(), n.path(EXECUTOR_ID).asText(""),
            n.path(HOST).asText(""), n.path(LOCALITY).asText(""), ts, -1, "RUNNING", "");
        inFlight.put(attemptKey(n), t);
        if (!t.executorId().isEmpty()) {
          executors.computeIfAbsent(t.executorId(), Executor::new).running.put(attemptKey(n), t);
        }
      }
      case TASK_END -> {
        long duration = Math.max(0, n.path(DURATION_MS).asLong());
        Task started = inFlight.remove(attemptKey(n));
        if (started != null && executors.containsKey(started.executorId())) {
          executors.get(started.executorId()).running.remove(attemptKey(n));
        }
        Task t = new Task(n.path(STAGE_ID).asInt(), n.path(TASK).asInt(), n.path(EXECUTOR_ID).asText(""),
            n.path(HOST).asText(""), n.path(LOCALITY).asText(""), ts - duration, ts, n.path(STATUS).asText(""),
            n.path(ERROR).asText(""));
        tasks.add(t);
        if (!t.executorId().isEmpty()) {
          executors.computeIfAbsent(t.executorId(), Executor::new).tasks.add(t);
        }
        if (n.path(WON_OVER_ATTEMPTS).size() > 0) {
          if (n.path(SPECULATIVE).asBoolean(false)) {
            copiesWon++;
          } else {
            originalsWon++;
          }
        }
        startMs = Math.min(startMs, t.startMs());
        if (t.status().equals("SUCCESS") && !n.path(SUPERSEDED).asBoolean(false) && n.path(COUNTERS).isObject()) {
          stage(n).taskCounters.put(t.index(), counters(n.path(COUNTERS)));
        }
      }
      case FETCH_FAILURE -> fetchFailures++;
      case TASK_SPECULATED -> speculated++;
      case BATCH_FAILED -> failedBatches.add("batch " + n.path(BATCH).asInt() + ": " + n.path(REASON).asText(""));
      case NODE_EXCLUDED -> nodesExcluded.merge(n.path(HOST).asText(""), 1, Integer::sum);
      case APP_END -> {
        ended = true;
        finalStatus = n.path(FINAL_STATUS).asText("");
        diagnostics = n.path(DIAGNOSTICS).asText("");
        loggedExecutorSeconds = n.path(EXECUTOR_SECONDS).isNumber() ? n.path(EXECUTOR_SECONDS).asDouble() : null;
      }
      default -> { }
    }
  }

  /** A {@code counters} object: name → integer value; values that are not integers are left out. */
  private static Map<String, Long> counters(JsonNode object) {
    Map<String, Long> out = new TreeMap<>();
    object.fields().forEachRemaining(f -> {
      if (f.getValue().canConvertToLong()) {
        out.put(f.getKey(), f.getValue().asLong());
      }
    });
    return out;
  }

  private static String attemptKey(JsonNode n) {
    return n.path(STAGE_ID).asInt() + "/" + n.path(TASK).asInt() + "/" + n.path(ATTEMPT).asInt();
  }

  /** {@code stage 3 (map)} for a stage the log submitted, else {@code stage 3}. */
  public String stageLabel(int stageId) {
    Stage s = stages.get(stageId);
    return s == null ? "stage " + stageId : s.label();
  }

  /** Where a run without an end stands, in a user's words. */
  public String progress() {
    long done = tasks.stream().filter(t -> t.status().equals("SUCCESS")).count();
    long stagesDone = stages.values().stream().filter(s -> s.completedMs >= 0).count();
    return String.format(java.util.Locale.ROOT, "running: %d tasks done, %d running; %d of %d stages so far complete",
        done, inFlight.size(), stagesDone, stages.size());
  }

  /** The application's final status as {@code app_end} gave it; empty while it runs. */
  public String finalStatus() {
    return finalStatus;
  }

  /**
   * What the log holds beyond the schema (report.events.Event): names of unknown events, and
   * {@code event.field} for fields their event does not declare. Read past, not shown; a log of a
   * newer release may have some, a log this release wrote has none.
   */
  public java.util.Set<String> beyondSchema() {
    return java.util.Collections.unmodifiableSet(unknown);
  }

  /** Failed attempts that carry an error, in the order they ended. */
  public List<Task> failedWithErrors() {
    return tasks.stream().filter(t -> t.status().equals("FAILED") && !t.error().isEmpty()).toList();
  }

  /** Attempts running at the log's last time, with endMs -1. */
  public List<Task> running() {
    return List.copyOf(inFlight.values());
  }

  private Executor executor(JsonNode n) {
    return executors.computeIfAbsent(n.path(EXECUTOR_ID).asText(""), Executor::new);
  }

  private Stage stage(JsonNode n) {
    return stages.computeIfAbsent(n.path(STAGE_ID).asInt(), Stage::new);
  }

  public List<Stage> stages() {
    return List.copyOf(stages.values());
  }

  public List<TargetChange> targetChanges() {
    return List.copyOf(targets);
  }

  /** The time of the last event. */
  public long endMs() {
    return endMs;
  }

  /** Every task attempt, in the order they ended. */
  public List<Task> tasks() {
    return List.copyOf(tasks);
  }

  public long wallMs() {
    return endMs - startMs;
  }

  /** Executors that were launched (held resources); some logs name executors only in task ends. */
  public List<Executor> launched() {
    return executors.values().stream().filter(e -> e.launchedMs >= 0).toList();
  }

  public double heldSeconds() {
    return launched().stream().mapToLong(e -> e.heldUntil(endMs) - e.launchedMs).sum() / 1000.0;
  }

  public double idleSeconds() {
    return launched().stream().mapToLong(e -> e.heldUntil(endMs) - e.launchedMs - e.busyMs(endMs)).sum() / 1000.0;
  }

  public int maxConcurrentExecutors() {
    return timeline().stream().mapToInt(Timeline.Row::executors).max().orElse(0);
  }

  /** Successful tasks by locality level, in the order NODE_LOCAL, RACK_LOCAL, ANY, then others. */
  Map<String, Integer> localityCounts() {
    Map<String, Integer> m = new LinkedHashMap<>();
    for (String level : List.of("PROCESS_LOCAL", "NODE_LOCAL", "RACK_LOCAL", "ANY")) {
      m.put(level, 0);
    }
    tasks.stream().filter(t -> t.status().equals("SUCCESS")).forEach(t -> m.merge(t.locality(), 1, Integer::sum));
    m.values().removeIf(v -> v == 0);
    return m;
  }

  /** Executor removals by reason, with exit status for the ones counted as failures. */
  Map<String, Integer> removals() {
    Map<String, Integer> m = new TreeMap<>();
    for (Executor e : executors.values()) {
      if (e.removedMs >= 0) {
        String key = e.removalReason + (e.countedAsFailure ? " (failure, exit " + e.exitStatus + ")" : "");
        m.merge(key, 1, Integer::sum);
      }
    }
    return m;
  }

  /** Task attempts by status. */
  Map<String, Integer> taskStatuses() {
    Map<String, Integer> m = new TreeMap<>();
    tasks.forEach(t -> m.merge(t.status(), 1, Integer::sum));
    return m;
  }

  /** Target, executors held, pending and running tasks at every change, from the log's first time. */
  public List<Timeline.Row> timeline() {
    record Delta(long t, int target, int executors, int pending, int running) {}
    List<Delta> d = new ArrayList<>();
    for (TargetChange c : targets) {
      d.add(new Delta(c.timeMs(), c.target(), 0, 0, 0));
    }
    for (Executor e : launched()) {
      d.add(new Delta(e.launchedMs, Integer.MIN_VALUE, 1, 0, 0));
      if (e.removedMs >= 0) {
        d.add(new Delta(e.removedMs, Integer.MIN_VALUE, -1, 0, 0));
      }
    }
    for (Stage s : stages.values()) {
      if (s.submittedMs >= 0) {
        d.add(new Delta(s.submittedMs, Integer.MIN_VALUE, 0, s.tasks, 0));
      }
    }
    for (Task t : tasks) {
      d.add(new Delta(t.startMs(), Integer.MIN_VALUE, 0, -1, 1));
      d.add(new Delta(t.endMs(), Integer.MIN_VALUE, 0, t.status().equals("SUCCESS") ? 0 : 1, -1));
    }
    for (Task t : inFlight.values()) {
      d.add(new Delta(t.startMs(), Integer.MIN_VALUE, 0, -1, 1));
    }
    d.sort(Comparator.comparingLong(Delta::t));
    Timeline tl = new Timeline();
    int target = 0;
    int held = 0;
    int pending = 0;
    int running = 0;
    for (Delta x : d) {
      if (x.target() != Integer.MIN_VALUE) {
        target = x.target();
      }
      held += x.executors();
      pending += x.pending();
      running += x.running();
      tl.observe(x.t() - startMs, target, held, Math.max(0, pending), running);
    }
    return tl.rows();
  }
}
