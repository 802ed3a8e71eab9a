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
      if (!AllKeys.find(k).isPresent() && !EnvironmentKeys.isEnvironmentKey(k)) {
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
