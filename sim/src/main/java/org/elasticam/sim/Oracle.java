package org.elasticam.sim;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.elasticam.report.Timeline;
import org.elasticam.engine.job.JobPlan;
import org.elasticam.engine.job.TracePlan;
import org.elasticam.workload.Trace;

/**
 * The ideal no policy can beat: executors exactly equal to ceil(running + runnable tasks / slots
 * per executor) at every instant, starting with no latency, within the cluster's capacity (and
 * {@code maxExecutors}): every task starts the moment its stage is submitted, or, when the capacity
 * is full, the moment a slot frees (first come, first served). Its makespan is the trace's critical
 * path under the replay rule when the capacity does not bind; its executor-seconds are the integral
 * of that executor count. No executor ever waits without a task (tasks are packed onto the fewest
 * executors), so its idle executor-seconds and time to full parallelism are 0; it sends no
 * requests and kills nothing.
 *
 * <p>Beside it, the <b>start-aware bound</b> ({@link #startAwareBoundMs}): the oracle's own executor
 * curve with every new executor paying a start latency (the world's grant plus lone start, the
 * least any policy pays), each rise of the curve taking an executor kept idle since the curve last
 * fell to that level when that is cheaper (an offline ski-rental, levels matched last-freed-first,
 * which is optimal for one curve). It is what a clairvoyant policy pays at the oracle's schedule;
 * a policy that runs later than the oracle may pay less.
 */
final class Oracle {

  static final String NAME = "oracle";
  /** The start-aware bound's name among the policies {@code simulate} reports. */
  static final String BOUND = "oracle-start-bound";

  private final EventQueue time = new EventQueue();
  private final Timeline timeline = new Timeline();
  private final TracePlan workload;
  private final int slots;
  private final long maxSlots;
  private final Map<Integer, Integer> remaining = new HashMap<>();
  /** Tasks waiting for a slot when the capacity is full: (stage, position). */
  private final Deque<int[]> queued = new ArrayDeque<>();
  private int running;
  private long executorMs;
  private long lastChangeMs;
  private int peak;
  private long makespanMs;

  private Oracle(Trace trace, SimConfig config) {
    this.workload = TracePlan.of(trace, config.params().timeScale(), config.params().hostNames());
    this.slots = config.slotsPerExecutor();
    this.maxSlots = config.maxSlots();
  }

  static SimResult run(Trace trace, String traceName, SimConfig config) {
    return new Oracle(trace, config).run(traceName);
  }

  /**
   * The start-aware bound as a row of its own: the oracle's makespan, timeline and peak, its
   * executor-seconds with the start costs added (counted as idle: no task runs while an executor
   * starts).
   */
  static SimResult startAwareBound(SimResult oracle, SimParams world) {
    long startMs = world.grantMs() + world.startMs();
    long bound = startAwareBoundMs(oracle, startMs);
    return new SimResult(BOUND, oracle.trace(), oracle.makespanMs(), bound, bound - oracle.executorMs(), 0,
        oracle.peakExecutors(), 0, 0, 0, oracle.timeline());
  }

  private SimResult run(String traceName) {
    timeline.observe(0, 0, 0, 0, 0);
    if (workload.totalStages() > 0) {
      submitAll(workload.start(0));
    }
    while (time.runNext()) {
      int executors = executors();
      timeline.observe(time.now(), executors, executors, queued.size(), running);
    }
    return new SimResult(NAME, traceName, makespanMs, executorMs, 0, 0, peak, 0, 0, 0, timeline.rows());
  }

  private void submitAll(List<JobPlan.Submission> due) {
    for (JobPlan.Submission d : due) {
      time.at(d.atMs(), () -> submit(d));
    }
  }

  private void submit(JobPlan.Submission d) {
    int id = d.stage().id();
    int n = d.stage().tasks().size();
    remaining.put(id, n);
    for (int i = 0; i < n; i++) {
      queued.addLast(new int[] {id, i});
    }
    dispatch();
  }

  private void dispatch() {
    while (!queued.isEmpty() && running < maxSlots) {
      int[] t = queued.removeFirst();
      change(1);
      time.after(workload.durationMs(t[0], t[1]), () -> taskEnded(t[0]));
    }
  }

  private void taskEnded(int stageId) {
    change(-1);
    int left = remaining.merge(stageId, -1, Integer::sum);
    if (left == 0) {
      remaining.remove(stageId);
      makespanMs = time.now();
      submitAll(workload.stageCompleted(stageId, time.now()));
    }
    dispatch();
  }

  /** Integrates the executor count up to now, then applies the change in running tasks. */
  private void change(int delta) {
    long now = time.now();
    executorMs += (long) executors() * (now - lastChangeMs);
    lastChangeMs = now;
    running += delta;
    peak = Math.max(peak, executors());
  }

  private int executors() {
    return (running + slots - 1) / slots;
  }

  /**
   * The start-aware bound of an oracle run: its executor-seconds plus, for every rise of its
   * executor curve, the cheaper of a start ({@code startMs}) and keeping an executor idle since the
   * curve last fell to that level.
   */
  static long startAwareBoundMs(SimResult oracle, long startMs) {
    Map<Integer, Long> freedAt = new HashMap<>();
    int level = 0;
    long lastMs = 0;
    long area = 0;
    long starts = 0;
    for (Timeline.Row row : oracle.timeline()) {
      long t = row.timeMs();
      int e = row.executors();
      area += (long) level * (t - lastMs);
      for (int k = level + 1; k <= e; k++) {
        Long freed = freedAt.get(k);
        starts += freed == null ? startMs : Math.min(startMs, t - freed);
      }
      for (int k = e + 1; k <= level; k++) {
        freedAt.put(k, t);
      }
      level = e;
      lastMs = t;
    }
    return area + starts;
  }
}
