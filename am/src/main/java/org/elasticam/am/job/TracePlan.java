package org.elasticam.am.job;

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
import org.elasticam.engine.job.JobPlan;

/**
 * A recorded workload replayed by the rule of DESIGN §5 (the {@code workload} module's
 * {@link Replay}, the same code the simulator uses): each task sleeps its recorded duration x the
 * time scale, on its recorded host (mapped onto ours) when it ran node-local. Stages that had no
 * tasks complete the moment they are submitted, so the gaps around them are kept.
 */
public final class TracePlan implements JobPlan {

  private final Replay replay;
  private final Map<Integer, Stage> stages = new HashMap<>();
  private final int totalTasks;

  private TracePlan(Replay replay) {
    this.replay = replay;
    int tasks = 0;
    for (ReplayStage rs : replay.stages()) {
      if (!rs.tasks().isEmpty()) {
        stages.put(rs.stageId(), toStage(rs));
        tasks += rs.tasks().size();
      }
    }
    this.totalTasks = tasks;
  }

  /** @throws TraceFormatException with file, line and reason, for the user */
  public static TracePlan of(Path file, double timeScale, List<String> clusterHosts)
      throws IOException, TraceFormatException {
    return new TracePlan(Replay.plan(Trace.read(file), timeScale, clusterHosts));
  }

  private static Stage toStage(ReplayStage rs) {
    Stage.Builder b = Stage.builder(rs.stageId(), rs.name(), BuiltInJobs.SLEEP_TASK);
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
