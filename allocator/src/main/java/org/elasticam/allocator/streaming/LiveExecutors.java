package org.elasticam.allocator.streaming;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * The executors a streaming policy counts: those registered minus those it already chose to remove.
 * A chosen executor stays registered until the driver reports it gone; counting it meanwhile would
 * make the next round release the same spare capacity twice, and choosing it again would spend a
 * removal on an executor that is already leaving.
 */
final class LiveExecutors {

  /** Numeric ids in numeric order, so the last is the newest; any other id after them, by name. */
  static final Comparator<String> AGE_ORDER = Comparator
      .comparing((String id) -> !isNumber(id))
      .thenComparingLong(id -> isNumber(id) && id.length() < 19 ? Long.parseLong(id) : Long.MAX_VALUE)
      .thenComparing(Comparator.naturalOrder());

  private final TreeSet<String> registered = new TreeSet<>(AGE_ORDER);
  private final Set<String> leaving = new HashSet<>();

  void added(String id) {
    registered.add(id);
  }

  /** Forgets it, whether this policy chose it or it went on its own. */
  void removed(String id) {
    registered.remove(id);
    leaving.remove(id);
  }

  /** Registered and not chosen for removal. */
  int current() {
    return registered.size() - leaving.size();
  }

  int leaving() {
    return leaving.size();
  }

  boolean isLeaving(String id) {
    return leaving.contains(id);
  }

  /** Chooses the {@code count} newest executors not already leaving, newest first, and marks them leaving. */
  List<String> takeNewest(int count) {
    List<String> chosen = new ArrayList<>();
    for (String id : registered.descendingSet()) {
      if (chosen.size() == count) {
        break;
      }
      if (!leaving.contains(id)) {
        chosen.add(id);
      }
    }
    leaving.addAll(chosen);
    return chosen;
  }

  /**
   * Chooses one executor not already leaving uniformly at random and marks it leaving. The candidates
   * are drawn in id order, so the same seed chooses the same executor.
   */
  String takeRandom(Random random) {
    List<String> candidates = new ArrayList<>();
    for (String id : registered) {
      if (!leaving.contains(id)) {
        candidates.add(id);
      }
    }
    if (candidates.isEmpty()) {
      throw new IllegalStateException("no executor to remove");
    }
    String chosen = candidates.get(random.nextInt(candidates.size()));
    leaving.add(chosen);
    return chosen;
  }

  private static boolean isNumber(String id) {
    return !id.isEmpty() && id.chars().allMatch(c -> c >= '0' && c <= '9');
  }
}
