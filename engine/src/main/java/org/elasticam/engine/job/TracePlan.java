package org.elasticam.engine.job;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.elasticam.api.Stage;
import org.elasticam.api.TaskSpec;
import org.elasticam.workload.Replay;
import org.elasticam.workload.ReplayStage;
import org.elasticam.workload.ReplayTask;
import org.elasticam.workload.Trace;
import org.elasticam.workload.TraceFormatException;

/**
 * A recorded workload replayed by the rule of DESIGN §5 (the {@code workload} module's
 * {@link Replay}): each task sleeps its recorded duration x the time scale, on its recorded host
 * (mapped onto ours) when it ran node-local. Stages that had no tasks complete the moment they are
 * submitted, so the gaps around them are kept. The AM's {@code trace} job runs it on executors;
 * the simulator runs it on the same engine, each task lasting its {@code ms}.
 */
public final class TracePlan implements JobPlan {

  /** The executor's task that sleeps for its {@code ms} parameter. */
  public static final String SLEEP_TASK = "org.elasticam.executor.tasks.SleepTask";

  private final Replay replay;
  private final Map<Integer, Stage> stages = new HashMap<>();
  private final Map<Integer, long[]> durations = new HashMap<>();
  private final int totalTasks;

  private TracePlan(Replay replay) {
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

  /** @throws TraceFormatException with file, line and reason, for the user */
  public static TracePlan of(Path file, double timeScale, List<String> clusterHosts)
      throws IOException, TraceFormatException {
    return of(Trace.read(file), timeScale, clusterHosts);
  }

  /** A fresh replay of {@code trace}: each run needs its own, since a replay keeps its progress. */
  public static TracePlan of(Trace trace, double timeScale, List<String> clusterHosts) {
    return new TracePlan(Replay.plan(trace, timeScale, clusterHosts));
  }

  /** How long the task at {@code position} of the stage's task list sleeps: its {@code ms}. */
  public long durationMs(int stageId, int position) {
    return durations.get(stageId)[position];
  }

  /** Tasks of a stage that has tasks. */
  public int tasksOf(int stageId) {
    return durations.get(stageId).length;
  }

  private static Stage toStage(ReplayStage rs) {
    Stage.Builder b = Stage.builder(rs.stageId(), rs.name(), SLEEP_TASK);
    for (ReplayTask t : rs.tasks()) {
      b.task(new TaskSpec(Map.of("ms", String.valueOf(t.durationMs())), t.preferredHost().map(List::of).orElse(List.of())));
    }
    return b.build();
  }

  @Override
  public int readersOf(int stageId) {
    return (int) stages.values().stream().filter(s -> s.parents().contains(stageId)).count();
  }

  @Override
  public List<Submission> start(long nowMs) {
    return expand(replay.start(nowMs));
  }

  @Override
  public List<Submission> stageCompleted(int stageId, long nowMs) {
    return expand(replay.stageCompleted(stageId, nowMs));
  }

  /** Completes task-less stages at their submission time and returns everything else to run. */
  private List<Submission> expand(List<org.elasticam.workload.Submission> due) {
    List<Submission> out = new ArrayList<>();
    List<org.elasticam.workload.Submission> work = new ArrayList<>(due);
    while (!work.isEmpty()) {
      org.elasticam.workload.Submission s = work.remove(0);
      Stage stage = stages.get(s.stageId());
      if (stage == null) {
        work.addAll(replay.stageCompleted(s.stageId(), s.atMs()));
      } else {
        out.add(new Submission(stage, s.atMs()));
      }
    }
    return out;
  }

  @Override
  public int totalTasks() {
    return totalTasks;
  }

  @Override
  public int totalStages() {
    return stages.size();
  }
}
