package org.elasticam.engine.job;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.elasticam.api.Stage;
import org.elasticam.engine.job.JobPlan;

/**
 * Stages with parents: each is submitted the moment its last parent completes, or a fixed pause
 * after it when the job asks for one.
 */
public final class DagPlan implements JobPlan {

  private final Map<Integer, Stage> stages = new LinkedHashMap<>();
  private final Map<Integer, Long> pauseMs;
  private final Set<Integer> done = new HashSet<>();
  private final Set<Integer> submitted = new HashSet<>();

  /** @throws IllegalArgumentException for duplicate ids, unknown parents or cycles */
  public DagPlan(List<Stage> list) {
    this(list, Map.of());
  }

  /** @param pauseMs per stage, how long after its last parent completes it is submitted */
  public DagPlan(List<Stage> list, Map<Integer, Long> pauseMs) {
    this.pauseMs = Map.copyOf(pauseMs);
    if (list.isEmpty()) {
      throw new IllegalArgumentException("the job has no stages");
    }
    for (Stage s : list) {
      if (stages.put(s.id(), s) != null) {
        throw new IllegalArgumentException("stage id " + s.id() + " is used twice");
      }
    }
    for (Stage s : list) {
      for (int p : s.parents()) {
        if (!stages.containsKey(p)) {
          throw new IllegalArgumentException("stage " + s.id() + " names unknown parent " + p);
        }
      }
    }
    checkAcyclic();
    for (Stage s : list) {
      for (int p : s.parents()) {
        Stage parent = stages.get(p);
        if (parent.writesShuffle() && parent.shufflePartitions() != s.tasks().size()) {
          throw new IllegalArgumentException("stage " + s.id() + " reads the " + parent.shufflePartitions()
              + " shuffle partitions of stage " + p + " but has " + s.tasks().size() + " tasks (one per partition)");
        }
      }
    }
  }

  private void checkAcyclic() {
    Map<Integer, Integer> state = new HashMap<>();
    for (int id : stages.keySet()) {
      visit(id, state);
    }
  }

  private void visit(int id, Map<Integer, Integer> state) {
    Integer s = state.get(id);
    if (s != null && s == 1) {
      throw new IllegalArgumentException("stages form a cycle through stage " + id);
    }
    if (s != null) {
      return;
    }
    state.put(id, 1);
    for (int p : stages.get(id).parents()) {
      visit(p, state);
    }
    state.put(id, 2);
  }

  @Override
  public int readersOf(int stageId) {
    return (int) stages.values().stream().filter(s -> s.parents().contains(stageId)).count();
  }

  @Override
  public List<Submission> start(long nowMs) {
    return ready(nowMs);
  }

  @Override
  public List<Submission> stageCompleted(int stageId, long nowMs) {
    if (!stages.containsKey(stageId) || !done.add(stageId)) {
      throw new IllegalStateException("stage " + stageId + " completed twice or is unknown");
    }
    return ready(nowMs);
  }

  private List<Submission> ready(long nowMs) {
    List<Submission> out = new ArrayList<>();
    for (Stage s : stages.values()) {
      if (!submitted.contains(s.id()) && done.containsAll(s.parents())) {
        submitted.add(s.id());
        out.add(new Submission(s, nowMs + pauseMs.getOrDefault(s.id(), 0L)));
      }
    }
    return out;
  }

  /** The stages, in the order the job gave them. */
  public List<Stage> stages() {
    return List.copyOf(stages.values());
  }

  @Override
  public int totalTasks() {
    return stages.values().stream().mapToInt(s -> s.tasks().size()).sum();
  }

  @Override
  public int totalStages() {
    return stages.size();
  }
}
