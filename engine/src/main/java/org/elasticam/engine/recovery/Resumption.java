package org.elasticam.engine.recovery;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.elasticam.api.Stage;
import org.elasticam.engine.job.JobPlan;
import org.elasticam.engine.lineage.MapOutputs;
import org.elasticam.engine.lineage.StageLineage;

/**
 * Where a new attempt of the AM picks the job up after a restart: it walks the plan as the earlier
 * attempts did. A stage they completed is known again, with its shuffle output where they left it,
 * and releases its children as before (a pause the plan keeps after it runs from when it really
 * completed); a stage they were running keeps the tasks that need not run again; every other
 * stage is submitted. Output only an executor that did not survive served is lost now, so its
 * maps run again before a reader needs them; survivors' output stays while they re-register.
 */
public final class Resumption {

  /** One map task's output as the journal recorded it. */
  public record RecordedOutput(int mapId, MapOutputs.Output output) {}

  /**
   * A stage as the journal recorded it: completed (at {@code completedAtMs}), or running with the
   * tasks that had succeeded and the output they wrote.
   */
  public record RecordedStage(int stageId, long completedAtMs, List<Integer> doneTasks, List<RecordedOutput> outputs) {}

  /**
   * Where the job stands.
   *
   * @param completed stages the earlier attempts completed, in plan order
   * @param toSubmit the stages to submit now (or at their time)
   * @param partlyDone per stage to submit, the tasks that stay done
   * @param recoveredTasks tasks of the completed stages, for progress
   */
  public record Resumed(List<Stage> completed, List<JobPlan.Submission> toSubmit, Map<Integer, Set<Integer>> partlyDone,
      int recoveredTasks) {}

  private Resumption() {}

  /**
   * Walks {@code plan} from {@code nowMs}, registering recovered output in {@code lineage}.
   *
   * @param survivors executors of the earlier attempt that are coming back
   */
  public static Resumed resume(JobPlan plan, long nowMs, List<RecordedStage> completedStages,
      List<RecordedStage> runningStages, Set<String> survivors, StageLineage lineage) {
    Map<Integer, RecordedStage> done = byStage(completedStages);
    Map<Integer, RecordedStage> running = byStage(runningStages);
    ArrayDeque<JobPlan.Submission> walk = new ArrayDeque<>(plan.start(nowMs));
    List<Stage> completed = new ArrayList<>();
    List<JobPlan.Submission> toSubmit = new ArrayList<>();
    Map<Integer, Set<Integer>> partlyDone = new LinkedHashMap<>();
    Set<String> writers = new HashSet<>();
    int recoveredTasks = 0;
    while (!walk.isEmpty()) {
      JobPlan.Submission s = walk.poll();
      Stage stage = s.stage();
      RecordedStage j = done.get(stage.id());
      if (j == null && running.containsKey(stage.id())) {
        Set<Integer> kept = tasksThatStayDone(stage, running.get(stage.id()), survivors, lineage.outputs());
        if (kept.size() < stage.tasks().size()) {
          partlyDone.put(stage.id(), kept);
          toSubmit.add(s);
          continue;
        }
        // Every task had succeeded; only the stage's completion was not recorded.
        j = running.get(stage.id());
      }
      if (j == null) {
        toSubmit.add(s);
        continue;
      }
      lineage.recovered(stage);
      if (stage.writesShuffle()) {
        for (RecordedOutput o : j.outputs()) {
          if (o.mapId() >= 0 && o.mapId() < stage.tasks().size()) {
            lineage.outputs().put(stage.id(), o.mapId(), o.output());
            writers.add(o.output().executorId());
          }
        }
      }
      completed.add(stage);
      recoveredTasks += stage.tasks().size();
      walk.addAll(plan.stageCompleted(stage.id(), j.completedAtMs() > 0 ? j.completedAtMs() : nowMs));
    }
    writers.removeAll(survivors);
    writers.forEach(lineage.outputs()::executorLost);
    return new Resumed(completed, toSubmit, partlyDone, recoveredTasks);
  }

  /**
   * The tasks of a stage the earlier attempt was running that need not run again: those that
   * succeeded, and for a shuffle stage only those whose output outlived the restart (served by a
   * shuffle service, or by an executor that is coming back). Their output is registered now.
   */
  private static Set<Integer> tasksThatStayDone(Stage stage, RecordedStage j, Set<String> survivors,
      MapOutputs outputs) {
    int n = stage.tasks().size();
    Set<Integer> kept = new TreeSet<>();
    if (!stage.writesShuffle()) {
      j.doneTasks().stream().filter(t -> t >= 0 && t < n).forEach(kept::add);
      return kept;
    }
    outputs.register(stage.id(), n);
    for (RecordedOutput o : j.outputs()) {
      if (o.mapId() >= 0 && o.mapId() < n && (o.output().external() || survivors.contains(o.output().executorId()))) {
        outputs.put(stage.id(), o.mapId(), o.output());
        kept.add(o.mapId());
      }
    }
    return kept;
  }

  private static Map<Integer, RecordedStage> byStage(List<RecordedStage> stages) {
    Map<Integer, RecordedStage> m = new LinkedHashMap<>();
    stages.forEach(s -> m.put(s.stageId(), s));
    return m;
  }
}
