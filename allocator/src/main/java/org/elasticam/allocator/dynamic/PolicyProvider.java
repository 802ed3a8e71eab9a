package org.elasticam.allocator.dynamic;

/**
 * A policy built outside this module and found on the classpath through {@link java.util.ServiceLoader}
 * ({@code META-INF/services/org.elasticam.allocator.dynamic.PolicyProvider}): how the simulator
 * reaches {@code spark-reference}, which needs Spark's jars and so never ships with the AM.
 */
public interface PolicyProvider {

  /** The name {@code --policy} and the event log use. */
  String name();

  AllocationPolicy create(PolicySettings settings);
}
