package org.elasticam.allocator.dynamic;

import java.util.List;
import java.util.Locale;

/** Creates batch dynamic-allocation policies by name ({@code elasticam.dynamicAllocation.policy}). */
public final class AllocationPolicies {

  /** The names {@link #create} knows, in the order reports list them. */
  public static final List<String> NAMES = List.of("spark", "elastic");

  private AllocationPolicies() {}

  /** @throws IllegalArgumentException for an unknown name, listing the known ones */
  public static AllocationPolicy create(String name, PolicySettings settings) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "spark" -> new SparkPolicy(settings);
      case "elastic" -> new ElasticPolicy(settings);
      default -> throw new IllegalArgumentException("unknown policy '" + name + "' (known: " + String.join(", ", NAMES)
          + ")");
    };
  }
}
