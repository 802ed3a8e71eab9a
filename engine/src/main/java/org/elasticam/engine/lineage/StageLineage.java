package org.elasticam.engine.lineage;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;
import org.elasticam.api.Stage;

/**
 * The job's stages and the shuffles between them: which stage reads which map output, where that
 * output is ({@link MapOutputs}) and what its tasks counted ({@link StageCounters}), what must run again when some of it is lost, which stages wait
 * for it meanwhile, and when a shuffle has no reader left. It decides; the driver applies each
 * decision to the task scheduler, the policy and the event log. Owner thread only.
 */
public final class StageLineage {

  /** As Spark's stage attempts: a stage whose input keeps getting lost fails the job instead of looping. */
  public static final int MAX_FETCH_FAILURES_PER_STAGE = 16;

  /**
   * Map tasks of {@code mapStage} to run again because their output is lost.
   *
   * @param waitingStage the stage that waits for them (its tasks paused), or null when none does yet
   */
  public record Rerun(Stage mapStage, List<Integer> maps, String why, Integer waitingStage) {}

  /** What a fetch failure means for the job. */
  public sealed interface FetchVerdict {
    /** The job cannot go on. */
    record Fail(int failuresInStage, String diagnostics) implements FetchVerdict {}

    /**
     * The job goes on: map tasks stay off the hosts whose output could not be fetched, and the lost
     * maps run again (none when another reducer's failure already made them).
     */
    record Recompute(int failuresInStage, List<String> hostsToAvoid, Optional<Rerun> rerun) implements FetchVerdict {}
  }

  /**
   * A stage completed.
   *
   * @param recomputed it only ran again the maps whose output was lost (its first completion counted before)
   * @param resumed stages that waited on lost output and now have all their input
   * @param consumed shuffles that no submitted stage will read again
   * @param removable shuffles every reader the plan has completed: their files may go
   */
  public record Completion(boolean recomputed, List<Integer> resumed, List<Integer> consumed, List<Integer> removable) {}

  private final MapOutputs outputs = new MapOutputs();
  private final StageCounters counters = new StageCounters();
  private final IntUnaryOperator readersInPlan;
  private final Map<Integer, Stage> stages = new HashMap<>();
  /** Map stages running again for lost output, and the stages waiting on them. */
  private final Set<Integer> rerunning = new HashSet<>();
  private final Set<Integer> waitingForInput = new LinkedHashSet<>();
  /** Per shuffle, the submitted stages that read it and have not completed. */
  private final Map<Integer, Integer> readersLeft = new HashMap<>();
  /** Shuffles every submitted reader of which completed. */
  private final Set<Integer> consumed = new HashSet<>();
  /** Per shuffle, its readers that completed, against the plan's count of all its readers. */
  private final Map<Integer, Integer> readersDone = new HashMap<>();
  private final Map<Integer, Integer> fetchFailures = new HashMap<>();

  /** @param readersInPlan per shuffle, how many stages of the whole plan read it (submitted or not) */
  public StageLineage(IntUnaryOperator readersInPlan) {
    this.readersInPlan = readersInPlan;
  }

  public MapOutputs outputs() {
    return outputs;
  }

  /** What each stage's successful tasks counted. */
  public StageCounters counters() {
    return counters;
  }

  public Stage stage(int stageId) {
    return stages.get(stageId);
  }

  public boolean isRerunning(int stageId) {
    return rerunning.contains(stageId);
  }

  /** The parents of a stage whose shuffle output it reads. */
  public List<Integer> shuffleParents(Stage stage) {
    return stage.parents().stream().filter(outputs::isShuffle).toList();
  }

  /** A stage an earlier attempt of the AM completed: known, with its output where it left it (put by the caller). */
  public void recovered(Stage stage) {
    stages.put(stage.id(), stage);
    if (stage.writesShuffle()) {
      outputs.register(stage.id(), stage.tasks().size());
    }
  }

  /** A stage is submitted: the shuffles it reads gain a reader. Call {@link #lostInputOf} once it is scheduled. */
  public void submitted(Stage stage) {
    recovered(stage);
    for (int p : shuffleParents(stage)) {
      readersLeft.merge(p, 1, Integer::sum);
    }
  }

  /** The re-runs a just-submitted stage needs before it can read its input: one per parent with output missing. */
  public List<Rerun> lostInputOf(Stage stage) {
    List<Rerun> reruns = new ArrayList<>();
    for (int p : shuffleParents(stage)) {
      List<Integer> missing = outputs.missing(p);
      if (!missing.isEmpty()) {
        reruns.add(waitFor(stage.id(), p, missing, outputs.lostWhy(p)));
      }
    }
    return reruns;
  }

  private Rerun waitFor(int reader, int shuffleId, List<Integer> maps, String why) {
    waitingForInput.add(reader);
    rerunning.add(shuffleId);
    return new Rerun(stages.get(shuffleId), maps, why, reader);
  }

  /**
   * A task of {@code readerStage} could not fetch {@code maps} of {@code shuffleId}: past
   * {@link #MAX_FETCH_FAILURES_PER_STAGE} in the stage, or for a shuffle it does not read, the
   * job fails; else the output is forgotten and its maps run again while the stage waits.
   */
  public FetchVerdict fetchFailed(int readerStage, int task, int shuffleId, List<Integer> maps, String message) {
    int failures = fetchFailures.merge(readerStage, 1, Integer::sum);
    if (failures > MAX_FETCH_FAILURES_PER_STAGE) {
      return new FetchVerdict.Fail(failures, "Stage " + readerStage + " failed to fetch its shuffle input " + failures
          + " times; last: " + message);
    }
    Stage reader = stages.get(readerStage);
    if (!outputs.isShuffle(shuffleId) || reader == null || !reader.parents().contains(shuffleId)) {
      return new FetchVerdict.Fail(failures, "Task " + task + " of stage " + readerStage + " reported a fetch failure for"
          + " shuffle " + shuffleId + ", which it does not read");
    }
    List<MapOutputs.Output> before = outputs.outputs(shuffleId);
    List<String> hosts = maps.stream().filter(m -> m >= 0 && m < before.size() && before.get(m) != null)
        .map(m -> before.get(m).host()).distinct().toList();
    outputs.lose(shuffleId, maps);
    List<Integer> missing = outputs.missing(shuffleId);
    Optional<Rerun> rerun = missing.isEmpty() ? Optional.empty()
        : Optional.of(waitFor(readerStage, shuffleId, missing, "a reducer could not fetch it: " + message));
    return new FetchVerdict.Recompute(failures, hosts, rerun);
  }

  /**
   * The host is being decommissioned: output on it that a stage may still read is copied by
   * running its maps elsewhere now, while the host still serves the old copy.
   *
   * @param active whether a stage still runs (its re-run joins it; a completed one counts as re-running)
   */
  public List<Rerun> copyOff(String host, String why, IntPredicate active) {
    List<Rerun> reruns = new ArrayList<>();
    outputs.on(host).forEach((shuffle, maps) -> {
      Stage stage = stages.get(shuffle);
      if (stage == null || consumed.contains(shuffle)) {
        return;
      }
      if (!active.test(shuffle)) {
        rerunning.add(shuffle);
      }
      reruns.add(new Rerun(stage, maps, why, null));
    });
    return reruns;
  }

  /** A stage completed; what that releases. */
  public Completion completed(int stageId) {
    if (rerunning.remove(stageId)) {
      List<Integer> resumed = new ArrayList<>();
      for (int reader : List.copyOf(waitingForInput)) {
        if (shuffleParents(stages.get(reader)).stream().allMatch(p -> outputs.missing(p).isEmpty())) {
          waitingForInput.remove(reader);
          resumed.add(reader);
        }
      }
      return new Completion(true, resumed, List.of(), List.of());
    }
    List<Integer> consumedNow = new ArrayList<>();
    List<Integer> removable = new ArrayList<>();
    for (int p : shuffleParents(stages.get(stageId))) {
      if (readersLeft.merge(p, -1, Integer::sum) == 0) {
        consumed.add(p);
        consumedNow.add(p);
      }
      if (readersDone.merge(p, 1, Integer::sum) == readersInPlan.applyAsInt(p)) {
        removable.add(p);
      }
    }
    return new Completion(false, List.of(), consumedNow, removable);
  }

  /** A stage no one will run or read again (a streaming batch that ended): everything about it goes. */
  public void forget(int stageId) {
    stages.remove(stageId);
    outputs.forget(stageId);
    counters.forget(stageId);
    readersLeft.remove(stageId);
    readersDone.remove(stageId);
    consumed.remove(stageId);
    fetchFailures.remove(stageId);
  }
}
