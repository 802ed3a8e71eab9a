package org.elasticam.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Which stages of a {@link StageGraph} are ready, as stages complete: a stage with present parents
 * when the last of them completes, any other when every stage of its preceding work has. Knows
 * replay times only to say when a stage's waiting ended; adding the gap is {@link Replay}'s job.
 * Stages are named by their position in the graph. Not thread-safe.
 */
final class Progress {

  private final StageGraph graph;
  private final int[] parentsLeft;
  private final boolean[] complete;
  private final long[] completedAt;
  /** Latest replay completion among the first {@code i + 1} stages in completion order. */
  private final long[] prefixLatest;
  /** How many stages, in completion order, have completed with all those before them. */
  private int completedPrefix;
  /** Stages without present parents, by how much preceding work they wait for. */
  private final int[] parentless;
  private int nextParentless;
  private long startMs;

  Progress(StageGraph graph) {
    this.graph = graph;
    int n = graph.size();
    this.parentsLeft = new int[n];
    this.complete = new boolean[n];
    this.completedAt = new long[n];
    this.prefixLatest = new long[n];
    for (int i = 0; i < n; i++) {
      parentsLeft[i] = graph.node(i).parents().size();
    }
    Integer[] withoutParents = IntStream.range(0, n)
        .filter(i -> graph.node(i).parents().isEmpty()).boxed().toArray(Integer[]::new);
    Arrays.sort(withoutParents, Comparator.comparingInt(i -> graph.node(i).preceding()));
    this.parentless = Arrays.stream(withoutParents).mapToInt(Integer::intValue).toArray();
  }

  /** The stages ready at once: those that wait for nothing. */
  List<Integer> start(long startMs) {
    this.startMs = startMs;
    List<Integer> ready = new ArrayList<>();
    releaseParentless(ready);
    return ready;
  }

  /** Records a completion; returns the stages it made ready. */
  List<Integer> complete(int position, long atMs) {
    complete[position] = true;
    completedAt[position] = atMs;
    List<Integer> ready = new ArrayList<>();
    for (int child : graph.children(position)) {
      if (--parentsLeft[child] == 0) {
        ready.add(child);
      }
    }
    advanceCompletedPrefix();
    releaseParentless(ready);
    return ready;
  }

  boolean isComplete(int position) {
    return complete[position];
  }

  /**
   * When the waiting of a ready stage ended in the replay: the latest completion among what it
   * waited for, or the start time when it waited for nothing.
   */
  long waitEndedAt(int position) {
    StageGraph.Node node = graph.node(position);
    if (!node.parents().isEmpty()) {
      return node.parents().stream().mapToLong(p -> completedAt[p]).max().orElseThrow();
    }
    return node.preceding() == 0 ? startMs : prefixLatest[node.preceding() - 1];
  }

  private void advanceCompletedPrefix() {
    while (completedPrefix < graph.size() && complete[graph.byCompletion(completedPrefix)]) {
      long at = completedAt[graph.byCompletion(completedPrefix)];
      prefixLatest[completedPrefix] =
          completedPrefix == 0 ? at : Math.max(prefixLatest[completedPrefix - 1], at);
      completedPrefix++;
    }
  }

  private void releaseParentless(List<Integer> ready) {
    while (nextParentless < parentless.length
        && graph.node(parentless[nextParentless]).preceding() <= completedPrefix) {
      ready.add(parentless[nextParentless++]);
    }
  }
}
