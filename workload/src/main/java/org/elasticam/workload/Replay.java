package org.elasticam.workload;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The replay rule of DESIGN §5 as a state machine without a clock: the caller says when the
 * replay starts and when each stage completes, and learns which stages to submit and when. The
 * {@code trace} job on YARN and the simulator both drive it, so they replay a trace identically.
 *
 * <p><b>Stages.</b> The attempts of a stage are merged into one stage with one task per index
 * that any attempt ran. An index runs once, for the duration of its first successful attempt (or
 * of its last attempt if none succeeded), times the time scale, rounded, and at least 1 ms. A
 * merged stage was originally submitted at its first attempt's submission and completed at its
 * last attempt's completion.
 *
 * <p><b>When a stage is submitted.</b> A stage whose parents include some present in the trace
 * (absent ones were skipped by Spark and count as done) is submitted when the last of those
 * completes, plus its original gap: its submit time minus the latest original completion of those
 * parents, floored at 0. Any other stage waits for the work that preceded it: every stage that had
 * originally completed by its submit time. It is submitted when all of those have completed, plus
 * its submit time minus the latest of their original completions; with no preceding work, at its
 * submit time after the start. Gaps are scaled like durations. Among stages that took no time at
 * the same instant, preceding work only includes those earlier by (submit time, stage id).
 *
 * <p>Worked example, time scale 1, started at 1000: stage 0 (submitted 100, completed 400) and
 * stage 1 (150, 350) have no parents and nothing completed before them: submitted at 1100 and
 * 1150. Stage 2 (submitted 450, parents 0 and 1) has gap 450 - 400 = 50: if stage 1 completes at
 * 1400 and stage 0 at 1500, it is submitted at 1550. Stage 3 (submitted 700, no parents) had
 * stages 0, 1 and 2 before it, the last completed at 600: if stage 2 completes at 1700, stage 3
 * is submitted at 1800. With time scale 2, the same trace submits stages 0 and 1 at 1200 and 1300.
 *
 * <p><b>Hosts.</b> A task prefers the host it ran on when its recorded locality was
 * {@code PROCESS_LOCAL} or {@code NODE_LOCAL}, and nothing otherwise. Recorded hosts map onto the
 * cluster's: the distinct recorded hosts of the whole trace (every attempt), sorted by name, are
 * dealt round-robin onto the cluster hosts in the order given. With recorded hosts a, b, c and
 * cluster hosts n1, n2: a and c run on n1, b on n2. No cluster hosts, no preferences.
 *
 * <p>Not thread-safe: one owner drives it.
 */
public final class Replay {

  private final StageGraph graph;
  private final List<ReplayStage> stages;
  private final long[] gapMs;
  private final Map<Integer, Integer> positionOf = new HashMap<>();
  private final Progress progress;
  private final boolean[] submitted;
  private final int totalTasks;
  private boolean started;
  private int completed;

  private Replay(StageGraph graph, List<ReplayStage> stages, long[] gapMs) {
    this.graph = graph;
    this.stages = List.copyOf(stages);
    this.gapMs = gapMs;
    this.progress = new Progress(graph);
    this.submitted = new boolean[stages.size()];
    this.totalTasks = stages.stream().mapToInt(s -> s.tasks().size()).sum();
    for (int i = 0; i < stages.size(); i++) {
      positionOf.put(stages.get(i).stageId(), i);
    }
  }

  /**
   * @param timeScale multiplies every duration and gap; 0.1 replays ten times faster
   * @param clusterHosts the hosts that recorded hosts map onto, in a stable order
   */
  public static Replay plan(Trace trace, double timeScale, List<String> clusterHosts) {
    if (!(timeScale > 0) || Double.isInfinite(timeScale)) {
      throw new IllegalArgumentException(
          "time scale must be a positive finite number, got " + timeScale);
    }
    HostMap hosts = HostMap.of(trace.stageAttempts(), List.copyOf(clusterHosts));
    StageGraph graph = trace.graph();
    List<ReplayStage> stages = new ArrayList<>(graph.size());
    long[] gaps = new long[graph.size()];
    for (int i = 0; i < graph.size(); i++) {
      StageGraph.Node node = graph.node(i);
      List<ReplayTask> tasks = TaskChoice.choose(node.attempts()).stream()
          .map(t -> new ReplayTask(t.index(), Math.max(1, scale(t.durationMs(), timeScale)),
              hosts.preferredHost(t)))
          .toList();
      stages.add(new ReplayStage(node.stageId(), node.name(), tasks));
      gaps[i] = scale(node.gapMs(), timeScale);
    }
    return new Replay(graph, stages, gaps);
  }

  /** Every stage, by original submit time then stage id. */
  public List<ReplayStage> stages() {
    return stages;
  }

  /** @throws IllegalArgumentException when the stage is not in the trace */
  public ReplayStage stage(int stageId) {
    return stages.get(position(stageId));
  }

  public int totalTasks() {
    return totalTasks;
  }

  /** Starts the replay at {@code nowMs}; returns the stages that wait for nothing. */
  public List<Submission> start(long nowMs) {
    if (started) {
      throw new IllegalStateException("the replay has already started");
    }
    started = true;
    return submissions(progress.start(nowMs));
  }

  /**
   * Records that a submitted stage completed at {@code nowMs}; returns the stages that this made
   * submittable, each at its own time (never before {@code nowMs} when completions are reported in
   * time order).
   *
   * @throws IllegalArgumentException when the stage is not in the trace
   * @throws IllegalStateException when the stage was not submitted yet, or already completed
   */
  public List<Submission> stageCompleted(int stageId, long nowMs) {
    int position = position(stageId);
    if (!submitted[position]) {
      throw new IllegalStateException("stage " + stageId + " has not been submitted yet");
    }
    if (progress.isComplete(position)) {
      throw new IllegalStateException("stage " + stageId + " has already completed");
    }
    completed++;
    return submissions(progress.complete(position, nowMs));
  }

  /** True once every stage has completed. */
  public boolean finished() {
    return completed == stages.size();
  }

  private List<Submission> submissions(List<Integer> ready) {
    List<Integer> inOrder = new ArrayList<>(ready);
    List<Submission> out = new ArrayList<>(ready.size());
    inOrder.sort(Comparator.naturalOrder());
    for (int position : inOrder) {
      submitted[position] = true;
      long at = saturatedSum(progress.waitEndedAt(position), gapMs[position]);
      out.add(new Submission(graph.node(position).stageId(), at));
    }
    out.sort(Comparator.comparingLong(Submission::atMs));
    return out;
  }

  private int position(int stageId) {
    Integer position = positionOf.get(stageId);
    if (position == null) {
      throw new IllegalArgumentException("stage " + stageId + " is not in the trace");
    }
    return position;
  }

  static long scale(long ms, double timeScale) {
    // Math.round saturates at Long.MAX_VALUE rather than wrapping.
    return Math.round(ms * timeScale);
  }

  // A huge scale on a long trace must push submissions far out, not wrap them into the past.
  private static long saturatedSum(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? (a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE) : sum;
  }
}
