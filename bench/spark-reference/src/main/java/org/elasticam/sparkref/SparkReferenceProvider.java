package org.elasticam.sparkref;

import org.elasticam.allocator.dynamic.AllocationPolicy;
import org.elasticam.allocator.dynamic.PolicyProvider;
import org.elasticam.allocator.dynamic.PolicySettings;

/** Makes {@code spark-reference} known to the simulator wherever this module is on the classpath. */
public final class SparkReferenceProvider implements PolicyProvider {

  @Override
  public String name() {
    return SparkReferencePolicy.NAME;
  }

  @Override
  public AllocationPolicy create(PolicySettings settings) {
    return new SparkReferencePolicy(settings);
  }
}
