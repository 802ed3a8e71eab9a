package org.elasticam.workload;

import java.util.Objects;
import java.util.Optional;

/**
 * One task index of a replayed stage: it runs once, for {@code durationMs}.
 *
 * @param durationMs already scaled; at least 1
 * @param preferredHost a cluster host, when the recorded attempt ran data-local
 */
public record ReplayTask(int index, long durationMs, Optional<String> preferredHost) {

  public ReplayTask {
    Objects.requireNonNull(preferredHost, "preferredHost");
  }
}
