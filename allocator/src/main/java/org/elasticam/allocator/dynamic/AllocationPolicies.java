package org.elasticam.allocator.dynamic;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;

/** Creates batch dynamic-allocation policies by name ({@code elasticam.dynamicAllocation.policy}). */
public final class AllocationPolicies {

  /** The names {@link #create} knows without looking at the classpath, in the order reports list them. */
  public static final List<String> NAMES = List.of("spark", "elastic");

  /** The policy that runs Spark's own ExecutorAllocationManager, where its module is on the classpath. */
  public static final String SPARK_REFERENCE = "spark-reference";

  /**
   * {@code elastic-without-RULE[+RULE…]}: {@code elastic} with those rules ({@link ElasticPolicy.Rule})
   * switched off, for measuring what each is worth in the simulator. The AM's policy key takes only
   * {@link #NAMES}.
   */
  public static final String ELASTIC_WITHOUT = "elastic-without-";

  private AllocationPolicies() {}

  /** Every policy {@link #create} can make here: those found on the classpath first, then {@link #NAMES}. */
  public static List<String> available() {
    List<String> names = new ArrayList<>();
    ServiceLoader.load(PolicyProvider.class).forEach(p -> names.add(p.name()));
    names.addAll(NAMES);
    return names;
  }

  /** @throws IllegalArgumentException for an unknown name, listing the known ones */
  public static AllocationPolicy create(String name, PolicySettings settings) {
    String n = name.toLowerCase(Locale.ROOT);
    switch (n) {
      case "spark":
        return new SparkPolicy(settings);
      case "elastic":
        return new ElasticPolicy(settings);
      default:
        if (n.startsWith(ELASTIC_WITHOUT)) {
          Set<ElasticPolicy.Rule> off = EnumSet.noneOf(ElasticPolicy.Rule.class);
          for (String id : n.substring(ELASTIC_WITHOUT.length()).split("\\+")) {
            off.add(ElasticPolicy.Rule.of(id));
          }
          return new ElasticPolicy(settings, off);
        }
        Optional<PolicyProvider> found = ServiceLoader.load(PolicyProvider.class).stream()
            .map(ServiceLoader.Provider::get).filter(p -> p.name().equals(n)).findFirst();
        if (found.isPresent()) {
          return found.get().create(settings);
        }
        String hint = n.equals(SPARK_REFERENCE)
            ? "; spark-reference runs Spark's own allocation manager and is not on this classpath: build it with"
                + " `mvn -B install -DskipTests -pl bench/spark-reference -am`"
            : "";
        throw new IllegalArgumentException("unknown policy '" + name + "' (known: " + String.join(", ", available())
            + ")" + hint);
    }
  }
}
