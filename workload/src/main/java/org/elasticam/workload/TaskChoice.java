package org.elasticam.workload;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which recorded attempt stands for each task index of a stage: the first that succeeded, or the
 * last one when none did. "First" and "last" go by stage attempt, then launch time, then task
 * attempt; the first success is the one the original run actually waited for, later successes
 * only redid lost output.
 */
final class TaskChoice {

  private static final Comparator<TraceTask> WITHIN_STAGE_ATTEMPT =
      Comparator.comparingLong(TraceTask::launchMs).thenComparingInt(TraceTask::attempt);

  private TaskChoice() {}

  /** @param attempts the attempts of one stage, by attempt number; returns tasks by index */
  static List<TraceTask> choose(List<TraceStage> attempts) {
    Map<Integer, TraceTask> firstSuccess = new TreeMap<>();
    Map<Integer, TraceTask> last = new TreeMap<>();
    for (TraceStage stage : attempts) {
      List<TraceTask> chronological = new ArrayList<>(stage.tasks());
      chronological.sort(WITHIN_STAGE_ATTEMPT);
      for (TraceTask task : chronological) {
        last.put(task.index(), task);
        if (task.succeeded()) {
          firstSuccess.putIfAbsent(task.index(), task);
        }
      }
    }
    List<TraceTask> chosen = new ArrayList<>(last.size());
    last.forEach((index, lastAttempt) -> chosen.add(firstSuccess.getOrDefault(index, lastAttempt)));
    return chosen;
  }
}
