package org.elasticam.sim;

import org.elasticam.report.Timeline;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.elasticam.workload.Trace;

/**
 * The bound no policy can beat: executors exactly equal to ceil(running + runnable tasks / slots
 * per executor) at every instant, starting with no latency, so every task starts the moment its
 * stage is submitted. Its makespan is the trace's critical path under the replay rule; its
 * executor-seconds are the integral of that executor count. No executor ever waits without a task
 * (tasks are packed onto the fewest executors), so its idle executor-seconds and time to full
 * parallelism are 0; it sends no requests and kills nothing. Capacity does not bind it.
 */
final class Oracle {

  static final String NAME = "oracle";

  private final EventQueue time = new EventQueue();
  private final Timeline timeline = new Timeline();
  private final Workload workload;
  private final int slots;
  private final Map<Integer, Integer> remaining = new HashMap<>();
  private int running;
  private long executorMs;
  private long lastChangeMs;
  private int peak;
  private long makespanMs;

  private Oracle(Trace trace, SimConfig config) {
    this.workload = Workload.of(trace, config.params().timeScale(), config.params().hostNames());
    this.slots = config.slotsPerExecutor();
  }

  static SimResult run(Trace trace, String traceName, SimConfig config) {
    return new Oracle(trace, config).run(traceName);
  }

  private SimResult run(String traceName) {
    timeline.observe(0, 0, 0, 0, 0);
    if (workload.totalStages() > 0) {
      submitAll(workload.start(0));
    }
    while (time.runNext()) {
      int executors = executors();
      timeline.observe(time.now(), executors, executors, 0, running);
    }
    return new SimResult(NAME, traceName, makespanMs, executorMs, 0, 0, peak, 0, 0, 0, timeline.rows());
  }

  private void submitAll(List<Workload.Due> due) {
    for (Workload.Due d : due) {
      time.at(d.atMs(), () -> submit(d));
    }
  }

  private void submit(Workload.Due d) {
    int id = d.stage().id();
    int n = d.stage().tasks().size();
    change(n);
    remaining.put(id, n);
    for (int i = 0; i < n; i++) {
      time.after(workload.durationMs(id, i), () -> taskEnded(id));
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
}
