package org.elasticam.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The stages of a trace, attempts merged by stage id, and what each waits for in a replay: its
 * parents present in the trace, or else the work that preceded it. Times are the original ones;
 * {@link Replay} scales them.
 *
 * <p>A merged stage was originally submitted at its first attempt's submit time and completed at
 * its last attempt's completion. The work preceding a stage S without present parents is every
 * other stage P with {@code P.complete <= S.submit}; among stages that took no time at S's submit
 * time, only those ordered before S (by submit time, then id) count, so that two empty stages at
 * the same instant cannot wait for each other. Preceding work is thus a prefix of the stages
 * sorted by (complete, submit, id), which is how it is stored: one count per stage, not a list.
 */
final class StageGraph {

  /**
   * @param parents positions (in {@link #nodes}) of the parents present in the trace
   * @param preceding for a stage without present parents, how many stages of
   *     {@link #byCompletion} it waits for (a prefix); 0 otherwise
   * @param gapMs original time from the end of what it waits for to its submission, floored at
   *     0; from application start when it waits for nothing
   */
  record Node(int stageId, String name, long submitMs, long completeMs, List<TraceStage> attempts,
      List<Integer> parents, int preceding, long gapMs) {}

  private static final Comparator<Node> REPLAY_ORDER =
      Comparator.comparingLong(Node::submitMs).thenComparingInt(Node::stageId);
  private static final Comparator<Node> COMPLETION_ORDER = Comparator.comparingLong(Node::completeMs)
      .thenComparingLong(Node::submitMs).thenComparingInt(Node::stageId);

  private final List<Node> nodes;
  private final int[] byCompletion;
  private final int[][] children;

  private StageGraph(List<Node> nodes) {
    this.nodes = List.copyOf(nodes);
    this.byCompletion = completionOrder(nodes);
    this.children = children(nodes);
  }

  /** @param attempts stage attempts, at most one per (stage id, attempt) */
  static StageGraph of(List<TraceStage> attempts) {
    List<Node> merged = merge(attempts);
    Map<Integer, Integer> positions = new HashMap<>();
    for (int i = 0; i < merged.size(); i++) {
      positions.put(merged.get(i).stageId(), i);
    }
    Node[] sortedByCompletion = merged.toArray(Node[]::new);
    Arrays.sort(sortedByCompletion, COMPLETION_ORDER);
    List<Node> nodes = new ArrayList<>(merged.size());
    for (Node n : merged) {
      List<Integer> present = n.parents().stream()
          .filter(positions::containsKey).map(positions::get).toList();
      nodes.add(present.isEmpty()
          ? withPreceding(n, sortedByCompletion)
          : withParents(n, present, merged));
    }
    return new StageGraph(nodes);
  }

  /** Stages in replay order: by original submit time, then stage id. */
  List<Node> nodes() {
    return nodes;
  }

  Node node(int position) {
    return nodes.get(position);
  }

  int size() {
    return nodes.size();
  }

  /** Positions sorted by (original complete, submit, stage id): preceding work is a prefix. */
  int byCompletion(int rank) {
    return byCompletion[rank];
  }

  /** Positions of the stages that have the stage at {@code position} as a present parent. */
  int[] children(int position) {
    return children[position];
  }

  /**
   * Stage ids that a replay could never submit, in replay order: only possible when parents and
   * times contradict each other (a stage its own ancestor, or waiting for its descendant).
   */
  List<Integer> unreachable() {
    Progress dryRun = new Progress(this);
    List<Integer> ready = new ArrayList<>(dryRun.start(0));
    while (!ready.isEmpty()) {
      ready.addAll(dryRun.complete(ready.remove(ready.size() - 1), 0));
    }
    List<Integer> stuck = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      if (!dryRun.isComplete(i)) {
        stuck.add(nodes.get(i).stageId());
      }
    }
    return stuck;
  }

  private static List<Node> merge(List<TraceStage> attempts) {
    Map<Integer, List<TraceStage>> byId = new LinkedHashMap<>();
    for (TraceStage a : attempts) {
      byId.computeIfAbsent(a.stageId(), id -> new ArrayList<>()).add(a);
    }
    List<Node> merged = new ArrayList<>(byId.size());
    for (List<TraceStage> same : byId.values()) {
      same.sort(Comparator.comparingInt(TraceStage::attempt));
      TreeSet<Integer> parents = new TreeSet<>();
      same.forEach(a -> parents.addAll(a.parents()));
      long submit = same.stream().mapToLong(TraceStage::submitMs).min().orElseThrow();
      long complete = same.stream().mapToLong(TraceStage::completeMs).max().orElseThrow();
      TraceStage first = same.get(0);
      merged.add(new Node(first.stageId(), first.name(), submit, complete, List.copyOf(same),
          List.copyOf(parents), 0, 0));
    }
    merged.sort(REPLAY_ORDER);
    return merged;
  }

  private static Node withParents(Node n, List<Integer> present, List<Node> merged) {
    long lastParentEnd = present.stream().mapToLong(p -> merged.get(p).completeMs()).max()
        .orElseThrow();
    return new Node(n.stageId(), n.name(), n.submitMs(), n.completeMs(), n.attempts(), present, 0,
        Math.max(0, n.submitMs() - lastParentEnd));
  }

  private static Node withPreceding(Node n, Node[] sortedByCompletion) {
    // The stages keyed below (S.submit, S.submit, S.id) in completion order are those that
    // ended by S's submission, ties broken as the class comment says.
    Node probe = new Node(n.stageId(), n.name(), n.submitMs(), n.submitMs(), List.of(),
        List.of(), 0, 0);
    int preceding = lowerBound(sortedByCompletion, probe);
    long gap = preceding == 0
        ? n.submitMs()
        : Math.max(0, n.submitMs() - sortedByCompletion[preceding - 1].completeMs());
    return new Node(n.stageId(), n.name(), n.submitMs(), n.completeMs(), n.attempts(), List.of(),
        preceding, gap);
  }

  private static int lowerBound(Node[] sorted, Node probe) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (COMPLETION_ORDER.compare(sorted[mid], probe) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  private static int[] completionOrder(List<Node> nodes) {
    Integer[] positions = new Integer[nodes.size()];
    Arrays.setAll(positions, i -> i);
    Arrays.sort(positions, Comparator.comparing(nodes::get, COMPLETION_ORDER));
    return Arrays.stream(positions).mapToInt(Integer::intValue).toArray();
  }

  private static int[][] children(List<Node> nodes) {
    List<List<Integer>> children = new ArrayList<>();
    nodes.forEach(n -> children.add(new ArrayList<>()));
    for (int i = 0; i < nodes.size(); i++) {
      for (int parent : nodes.get(i).parents()) {
        children.get(parent).add(i);
      }
    }
    return children.stream()
        .map(c -> c.stream().mapToInt(Integer::intValue).toArray())
        .toArray(int[][]::new);
  }
}
