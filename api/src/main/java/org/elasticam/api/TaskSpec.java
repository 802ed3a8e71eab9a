package org.elasticam.api;

import java.util.List;
import java.util.Map;

/**
 * One task of a stage: its parameters and the hosts it would rather run on (for example where its
 * input lives). Preferences are hints: the scheduler waits {@code elasticam.locality.wait} for a
 * slot there, then takes any.
 */
public record TaskSpec(Map<String, String> params, List<String> preferredHosts) {

  public static final TaskSpec EMPTY = new TaskSpec(Map.of(), List.of());

  public TaskSpec {
    params = Map.copyOf(params);
    preferredHosts = List.copyOf(preferredHosts);
  }

  public static TaskSpec of(Map<String, String> params) {
    return new TaskSpec(params, List.of());
  }
}
