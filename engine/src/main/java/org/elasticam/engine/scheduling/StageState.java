package org.elasticam.engine.scheduling;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.elasticam.api.Stage;
import org.elasticam.api.TaskSpec;

/**
 * One submitted stage's tasks: which are pending, running, done; how often each failed; and the
 * queues delay scheduling picks from (by preferred host, by preferred rack, without preference).
 * Queues hold task indices and are cleaned lazily: an index found not pending is skipped.
 */
final class StageState {

  enum TaskStatus { PENDING, RUNNING, DONE }

  final Stage stage;
  final long submittedMs;
  final TaskStatus[] status;
  final int[] failures;
  final int[] attempts;
  /** Attempts of each task running now: 2 while a speculative copy runs beside the original. */
  final int[] copiesRunning;
  /** Tasks found slow enough for a copy (each at most once), and those of them waiting for a slot. */
  final boolean[] speculated;
  final Deque<Integer> speculative = new ArrayDeque<>();
  /** Run times of the attempts that succeeded, for the median speculation compares against. */
  long[] successMs = new long[8];
  int successes;
  private final Map<String, Deque<Integer>> byHost = new HashMap<>();
  private final Map<String, Deque<Integer>> byRack = new HashMap<>();
  private final Deque<Integer> noPreference = new ArrayDeque<>();
  private final Deque<Integer> all = new ArrayDeque<>();
  /** For the allocator: tasks with a preference, and per host how many prefer it. */
  final int tasksWithPreference;
  final Map<String, Integer> hostToTaskCount = new LinkedHashMap<>();
  int pending;
  int pendingWithPreference;
  int running;
  int done;
  Locality allowed = Locality.NODE_LOCAL;
  /** Since when the stage has waited at its allowed level: the last round that launched and declined nothing. */
  long localityWaitFromMs;
  /** This scheduling round: whether it launched a task, declined a free slot for locality, and its most local launch. */
  boolean launchedInRound;
  boolean declinedInRound;
  Locality mostLocalInRound;
  /** Waiting for lost input to be recomputed: none of its tasks is scheduled meanwhile. */
  boolean paused;

  StageState(Stage stage, long nowMs, Function<String, String> rackOf) {
    this(stage, nowMs, rackOf, null);
  }

  /** @param only the tasks to run, the others counting as done; null for all */
  StageState(Stage stage, long nowMs, Function<String, String> rackOf, java.util.Set<Integer> only) {
    this.stage = stage;
    this.submittedMs = nowMs;
    int n = stage.tasks().size();
    status = new TaskStatus[n];
    failures = new int[n];
    attempts = new int[n];
    copiesRunning = new int[n];
    speculated = new boolean[n];
    int withPref = 0;
    for (int i = 0; i < n; i++) {
      List<String> prefs = stage.tasks().get(i).preferredHosts();
      if (!prefs.isEmpty() && (only == null || only.contains(i))) {
        withPref++;
        prefs.forEach(h -> hostToTaskCount.merge(h, 1, Integer::sum));
      }
    }
    tasksWithPreference = withPref;
    for (int i = 0; i < n; i++) {
      if (only == null || only.contains(i)) {
        enqueue(i, rackOf);
      } else {
        status[i] = TaskStatus.DONE;
        done++;
      }
    }
    localityWaitFromMs = nowMs;
  }

  TaskSpec spec(int index) {
    return stage.tasks().get(index);
  }

  void enqueue(int index, Function<String, String> rackOf) {
    status[index] = TaskStatus.PENDING;
    pending++;
    List<String> prefs = spec(index).preferredHosts();
    // One boxed index shared by every queue it joins, and one entry per rack however many of its
    // hosts share it: a million pending tasks cost 16 bytes each less per queue.
    Integer boxed = index;
    if (prefs.isEmpty()) {
      noPreference.add(boxed);
    } else {
      pendingWithPreference++;
    }
    for (int i = 0; i < prefs.size(); i++) {
      String h = prefs.get(i);
      byHost.computeIfAbsent(h, k -> new ArrayDeque<>()).add(boxed);
      String rack = rackOf.apply(h);
      if (rack != null && !rackOfEarlierHost(prefs, i, rack, rackOf)) {
        byRack.computeIfAbsent(rack, k -> new ArrayDeque<>()).add(boxed);
      }
    }
    all.add(boxed);
  }

  /** Whether one of the task's first {@code i} preferred hosts is on {@code rack}: it joined that queue already. */
  private static boolean rackOfEarlierHost(List<String> prefs, int i, String rack, Function<String, String> rackOf) {
    for (int j = 0; j < i; j++) {
      if (rack.equals(rackOf.apply(prefs.get(j)))) {
        return true;
      }
    }
    return false;
  }

  /** A pending task at {@code level} for an executor on host/rack, or -1. */
  int take(Locality level, String host, String rack) {
    int i = switch (level) {
      case NODE_LOCAL -> poll(byHost.get(host));
      case RACK_LOCAL -> rack == null ? -1 : poll(byRack.get(rack));
      case ANY -> {
        int free = poll(noPreference);
        yield free >= 0 ? free : poll(all);
      }
    };
    if (i >= 0) {
      status[i] = TaskStatus.RUNNING;
      copiesRunning[i]++;
      pending--;
      running++;
      if (!spec(i).preferredHosts().isEmpty()) {
        pendingWithPreference--;
      }
    }
    return i;
  }

  private int poll(Deque<Integer> q) {
    while (q != null && !q.isEmpty()) {
      int i = q.pollFirst();
      if (status[i] == TaskStatus.PENDING) {
        return i;
      }
    }
    return -1;
  }

  /** Whether a pending task prefers one of these hosts: node-local launches are possible. */
  boolean pendingOnAnyOf(java.util.Set<String> hosts) {
    return pendingIn(byHost, hosts);
  }

  /** Whether a pending task prefers a host on one of these racks. */
  boolean pendingOnAnyRackOf(java.util.Set<String> racks) {
    return pendingIn(byRack, racks);
  }

  private boolean pendingIn(Map<String, Deque<Integer>> index, java.util.Set<String> places) {
    Map<String, Deque<Integer>> small = index.size() <= places.size() ? index : null;
    if (small != null) {
      for (Map.Entry<String, Deque<Integer>> e : index.entrySet()) {
        if (places.contains(e.getKey()) && hasPending(e.getValue())) {
          return true;
        }
      }
      return false;
    }
    for (String p : places) {
      if (hasPending(index.get(p))) {
        return true;
      }
    }
    return false;
  }

  /** Drops finished and running indices from the head; true when a pending one remains. */
  private boolean hasPending(Deque<Integer> q) {
    while (q != null && !q.isEmpty()) {
      if (status[q.peekFirst()] == TaskStatus.PENDING) {
        return true;
      }
      q.pollFirst();
    }
    return false;
  }

  void succeededIn(long runMs) {
    if (successes == successMs.length) {
      successMs = java.util.Arrays.copyOf(successMs, successes * 2);
    }
    successMs[successes++] = runMs;
  }

  /** The median run time of the attempts that succeeded (of an even count, the mean of the middle two). */
  double medianSuccessMs() {
    long[] sorted = java.util.Arrays.copyOf(successMs, successes);
    java.util.Arrays.sort(sorted);
    return successes % 2 == 1 ? sorted[successes / 2] : (sorted[successes / 2 - 1] + sorted[successes / 2]) / 2.0;
  }

  /** Speculative copies waiting for a slot: tasks still running with one attempt. */
  int speculativePending() {
    int n = 0;
    for (int i : speculative) {
      if (status[i] == TaskStatus.RUNNING && copiesRunning[i] == 1) {
        n++;
      }
    }
    return n;
  }

  boolean complete() {
    return done == status.length;
  }
}
