package org.elasticam.conf;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Finds {@code elasticam.*} keys that no part of ElasticAM reads, usually typos, and names the
 * closest known key so the user can fix them.
 */
public final class UnknownKeys {

  private UnknownKeys() {}

  /** One warning line per unknown {@code elasticam.*} key among {@code presentKeys}, sorted. */
  public static List<String> warnings(Collection<String> presentKeys) {
    List<String> out = new ArrayList<>();
    presentKeys.stream().filter(k -> k.startsWith(ElasticConf.PREFIX)).sorted().forEach(k -> {
      if (AllKeys.find(k).isEmpty()) {
        out.add("unknown configuration key " + k
            + closest(k).map(c -> "; did you mean " + c + "?").orElse(" (no similar key)"));
      }
    });
    return out;
  }

  /** The known key nearest by edit distance, if it is near enough to be a plausible typo. */
  static Optional<String> closest(String key) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (ConfigKey<?> k : AllKeys.all()) {
      int d = distance(key.toLowerCase(), k.name().toLowerCase());
      if (d < bestDistance) {
        bestDistance = d;
        best = k.name();
      }
    }
    int tolerance = Math.max(3, key.length() / 4);
    return bestDistance <= tolerance ? Optional.ofNullable(best) : Optional.empty();
  }

  /** Levenshtein distance, two rows. */
  static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
