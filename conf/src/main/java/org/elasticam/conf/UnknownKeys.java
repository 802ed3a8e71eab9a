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

  /** Keys kept for Spark's users that nothing here acts on, with why. */
  private static final java.util.Map<String, String> INERT = java.util.Collections.singletonMap(
      DynamicAllocationKeys.CACHED_IDLE_TIMEOUT.name(),
      "the job API caches no data, so no executor is ever held for cached blocks");

  private UnknownKeys() {}

  /** One warning line per unknown {@code elasticam.*} key among {@code presentKeys}, sorted. */
  public static List<String> warnings(Collection<String> presentKeys) {
    List<String> out = new ArrayList<>();
    presentKeys.stream().filter(k -> k.startsWith(ElasticConf.PREFIX)).sorted().forEach(k -> {
      if (INERT.containsKey(k)) {
        out.add(k + " is set but has no effect: " + INERT.get(k));
      } else if (!AllKeys.find(k).isPresent() && !EnvironmentKeys.isEnvironmentKey(k)) {
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
      int d = EditDistance.between(key.toLowerCase(), k.name().toLowerCase());
      if (d < bestDistance) {
        bestDistance = d;
        best = k.name();
      }
    }
    int tolerance = Math.max(3, key.length() / 4);
    return bestDistance <= tolerance ? Optional.ofNullable(best) : Optional.empty();
  }
}
