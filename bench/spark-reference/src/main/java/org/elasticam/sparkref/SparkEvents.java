package org.elasticam.sparkref;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.spark.Success$;
import org.apache.spark.TaskEndReason;
import org.apache.spark.TaskKilled;
import org.apache.spark.UnknownReason$;
import org.apache.spark.executor.ExecutorMetrics;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListenerBlockUpdated;
import org.apache.spark.scheduler.SparkListenerExecutorAdded;
import org.apache.spark.scheduler.SparkListenerExecutorRemoved;
import org.apache.spark.scheduler.SparkListenerSpeculativeTaskSubmitted;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.scheduler.SparkListenerUnschedulableTaskSetAdded;
import org.apache.spark.scheduler.SparkListenerUnschedulableTaskSetRemoved;
import org.apache.spark.scheduler.TaskLocality;
import org.apache.spark.scheduler.TaskLocation;
import org.apache.spark.scheduler.TaskLocation$;
import org.apache.spark.scheduler.cluster.ExecutorInfo;
import org.apache.spark.storage.BlockManagerId;
import org.apache.spark.storage.BlockUpdatedInfo;
import org.apache.spark.storage.RDDBlockId;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.ManualClock;
import org.elasticam.allocator.dynamic.StageInfo;
import org.elasticam.allocator.dynamic.TaskInfo;
import org.elasticam.allocator.dynamic.TaskOutcome;
import scala.Option;
import scala.collection.immutable.Seq;

/**
 * Our policy events as Spark's listener events, with what Spark needs that we do not carry made
 * up consistently: task ids, hosts, and per-task locality preferences rebuilt from the per-host
 * counts (the manager reads only those counts back from them).
 */
final class SparkEvents {

  private static final String HOST = "sim-host";

  private final ManualClock clock;
  private final Map<String, org.apache.spark.scheduler.StageInfo> stages = new HashMap<>();
  private final Map<String, Integer> cachedBlock = new HashMap<>();
  private long nextTaskId;

  SparkEvents(ManualClock clock) {
    this.clock = clock;
  }

  private static String key(int stageId, int attempt) {
    return stageId + "." + attempt;
  }

  SparkListenerStageSubmitted stageSubmitted(StageInfo s) {
    org.apache.spark.scheduler.StageInfo info = new org.apache.spark.scheduler.StageInfo(s.stageId(), s.attempt(),
        "stage " + s.stageId(), s.numTasks(), SparkManagers.seq(List.of()), SparkManagers.seq(List.of()), "",
        TaskMetrics.empty(), localityPreferences(s), s.shuffleId() >= 0 ? Option.apply(s.shuffleId()) : Option.empty(),
        SparkManagers.DEFAULT_PROFILE, false, 0);
    stages.put(key(s.stageId(), s.attempt()), info);
    return new SparkListenerStageSubmitted(info, new Properties());
  }

  /**
   * Per-task preferred hosts with exactly our counts: the locality-aware tasks take the hosts in
   * turn, each host its count of consecutive tasks (wrapping), so no task names a host twice
   * (a count never exceeds the locality-aware tasks) and every locality-aware task names one.
   */
  static Seq<Seq<TaskLocation>> localityPreferences(StageInfo s) {
    List<List<TaskLocation>> perTask = new ArrayList<>();
    for (int i = 0; i < s.numTasks(); i++) {
      perTask.add(new ArrayList<>());
    }
    int aware = Math.min(s.localityAwareTasks(), s.numTasks());
    if (aware > 0) {
      int next = 0;
      for (Map.Entry<String, Integer> e : new java.util.TreeMap<>(s.hostToLocalTaskCount()).entrySet()) {
        for (int k = 0; k < Math.min(e.getValue(), aware); k++) {
          perTask.get(next).add(TaskLocation$.MODULE$.apply(e.getKey()));
          next = (next + 1) % aware;
        }
      }
    }
    List<Seq<TaskLocation>> out = new ArrayList<>();
    perTask.forEach(l -> out.add(SparkManagers.seq(l)));
    return SparkManagers.seq(out);
  }

  SparkListenerStageCompleted stageCompleted(int stageId, int attempt) {
    org.apache.spark.scheduler.StageInfo info = stages.remove(key(stageId, attempt));
    if (info == null) {
      info = new org.apache.spark.scheduler.StageInfo(stageId, attempt, "stage " + stageId, 0,
          SparkManagers.seq(List.of()), SparkManagers.seq(List.of()), "", TaskMetrics.empty(),
          SparkManagers.seq(List.of()), Option.empty(), SparkManagers.DEFAULT_PROFILE, false, 0);
    }
    return new SparkListenerStageCompleted(info);
  }

  SparkListenerSpeculativeTaskSubmitted speculativeTaskSubmitted(int stageId, int attempt, int index) {
    return new SparkListenerSpeculativeTaskSubmitted(stageId, attempt, index, index);
  }

  SparkListenerUnschedulableTaskSetAdded unschedulableAdded(int stageId, int attempt) {
    return new SparkListenerUnschedulableTaskSetAdded(stageId, attempt);
  }

  SparkListenerUnschedulableTaskSetRemoved unschedulableRemoved(int stageId, int attempt) {
    return new SparkListenerUnschedulableTaskSetRemoved(stageId, attempt);
  }

  private org.apache.spark.scheduler.TaskInfo taskInfo(TaskInfo t) {
    return new org.apache.spark.scheduler.TaskInfo(nextTaskId++, t.index(), 0, t.index(), clock.getTimeMillis(),
        t.executorId(), HOST, TaskLocality.ANY(), t.speculative());
  }

  SparkListenerTaskStart taskStart(TaskInfo t) {
    return new SparkListenerTaskStart(t.stageId(), t.attempt(), taskInfo(t));
  }

  SparkListenerTaskEnd taskEnd(TaskInfo t, TaskOutcome outcome) {
    TaskEndReason reason = switch (outcome) {
      case SUCCESS -> Success$.MODULE$;
      case FAILED -> UnknownReason$.MODULE$;
      case KILLED -> new TaskKilled("another attempt succeeded", SparkManagers.seq(List.of()),
          SparkManagers.seq(List.of()), SparkManagers.seq(List.of()));
    };
    org.apache.spark.scheduler.StageInfo stage = stages.get(key(t.stageId(), t.attempt()));
    String type = stage != null && stage.shuffleDepId().isDefined() ? "ShuffleMapTask" : "ResultTask";
    return new SparkListenerTaskEnd(t.stageId(), t.attempt(), type, reason, taskInfo(t), new ExecutorMetrics(),
        TaskMetrics.empty());
  }

  SparkListenerExecutorAdded executorAdded(String id) {
    return new SparkListenerExecutorAdded(clock.getTimeMillis(), id, new ExecutorInfo(HOST, 1,
        scala.collection.immutable.Map$.MODULE$.empty()));
  }

  SparkListenerExecutorRemoved executorRemoved(String id) {
    cachedBlock.remove(id);
    return new SparkListenerExecutorRemoved(clock.getTimeMillis(), id, "removed");
  }

  /** One RDD block per executor stands for its cached data: stored while it holds some, dropped after. */
  SparkListenerBlockUpdated cachedBlock(String executorId, boolean holds) {
    int split = cachedBlock.computeIfAbsent(executorId, k -> cachedBlock.size());
    StorageLevel level = holds ? StorageLevel.MEMORY_ONLY() : StorageLevel.NONE();
    BlockUpdatedInfo info = new BlockUpdatedInfo(BlockManagerId.apply(executorId, HOST, 7337, Option.empty()),
        new RDDBlockId(0, split), level, holds ? 1024 : 0, 0);
    return new SparkListenerBlockUpdated(info);
  }
}
