package org.elasticam.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.elasticam.allocator.dynamic.StageInfo;
import org.elasticam.api.Stage;
import org.elasticam.api.TaskSpec;
import org.elasticam.workload.Replay;
import org.elasticam.workload.ReplayStage;
import org.elasticam.workload.ReplayTask;
import org.elasticam.workload.Submission;
import org.elasticam.workload.Trace;

/**
 * A trace replayed by the rule of DESIGN §5 — the {@code workload} module's {@link Replay}, the
 * code the AM's {@code trace} job drives — as stages for the real task scheduler. As in the AM's
 * TracePlan, a stage without tasks completes the moment it is submitted and is never shown to the
 * scheduler, so the gaps around it are kept; the job ends when the last stage with tasks completes.
 */
final class Workload {

  /** The executor runs the AM's sleep task; in the simulation a task simply lasts its duration. */
  static final String TASK_CLASS = "org.elasticam.executor.tasks.SleepTask";

  /** A stage to submit at {@code atMs}. */
  record Due(Stage stage, long atMs) {}

  private final Replay replay;
  private final Map<Integer, Stage> stages = new HashMap<>();
  private final Map<Integer, long[]> durations = new HashMap<>();
  private final int totalTasks;

  private Workload(Replay replay) {
    this.replay = replay;
    int tasks = 0;
    for (ReplayStage rs : replay.stages()) {
      if (!rs.tasks().isEmpty()) {
        stages.put(rs.stageId(), toStage(rs));
        durations.put(rs.stageId(), rs.tasks().stream().mapToLong(ReplayTask::durationMs).toArray());
        tasks += rs.tasks().size();
      }
    }
    this.totalTasks = tasks;
  }

  /** A fresh replay of {@code trace}: each run needs its own, since a replay keeps its progress. */
  static Workload of(Trace trace, double timeScale, List<String> hosts) {
    return new Workload(Replay.plan(trace, timeScale, hosts));
  }

  private static Stage toStage(ReplayStage rs) {
    Stage.Builder b = Stage.builder(rs.stageId(), rs.name(), TASK_CLASS);
    for (ReplayTask t : rs.tasks()) {
      b.task(t.preferredHost().map(h -> new TaskSpec(Map.of(), List.of(h))).orElse(TaskSpec.EMPTY));
    }
    return b.build();
  }

  List<Due> start(long nowMs) {
    return expand(replay.start(nowMs));
  }

  List<Due> stageCompleted(int stageId, long nowMs) {
    return expand(replay.stageCompleted(stageId, nowMs));
  }

  /** Completes task-less stages at their submission time; returns the stages with tasks. */
  private List<Due> expand(List<Submission> due) {
    List<Due> out = new ArrayList<>();
    List<Submission> work = new ArrayList<>(due);
    while (!work.isEmpty()) {
      Submission s = work.remove(0);
      Stage stage = stages.get(s.stageId());
      if (stage == null) {
        work.addAll(replay.stageCompleted(s.stageId(), s.atMs()));
      } else {
        out.add(new Due(stage, s.atMs()));
      }
    }
    return out;
  }

  /** How long the task at {@code position} of the stage's task list runs. */
  long durationMs(int stageId, int position) {
    return durations.get(stageId)[position];
  }

  int tasksOf(int stageId) {
    return durations.get(stageId).length;
  }

  /** The stage as the policies see it, its locality counted from its tasks' preferred hosts. */
  static StageInfo stageInfo(Stage s) {
    int aware = 0;
    Map<String, Integer> perHost = new TreeMap<>();
    for (TaskSpec t : s.tasks()) {
      if (!t.preferredHosts().isEmpty()) {
        aware++;
        t.preferredHosts().forEach(h -> perHost.merge(h, 1, Integer::sum));
      }
    }
    return new StageInfo(s.id(), 0, s.tasks().size(), aware, perHost, -1);
  }

  /** Stages with tasks: the job is done when all of them are. */
  int totalStages() {
    return stages.size();
  }

  int totalTasks() {
    return totalTasks;
  }
}
