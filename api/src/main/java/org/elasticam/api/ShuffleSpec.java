package org.elasticam.api;

import java.util.Map;
import java.util.Objects;

/**
 * How a stage's shuffle output is partitioned, sorted and combined: the binary names of its
 * {@link Partitioner}, {@link KeyOrder} and {@link Combiner} classes (each empty for the default:
 * {@link HashPartitioner}, {@link KeyOrder.Ascending}, no combiner), and the string parameters each
 * of them is configured with. {@link Stage.Builder} fills it in.
 */
public record ShuffleSpec(String partitionerClass, String keyOrderClass, String combinerClass,
    Map<String, String> params) {

  /** Hash partitions, unsigned byte order, no combiner: the shuffle as it is without a spec. */
  public static final ShuffleSpec DEFAULT = new ShuffleSpec("", "", "", Map.of());

  public ShuffleSpec {
    Objects.requireNonNull(partitionerClass, "partitionerClass");
    Objects.requireNonNull(keyOrderClass, "keyOrderClass");
    Objects.requireNonNull(combinerClass, "combinerClass");
    params = Map.copyOf(params);
  }

  public boolean isDefault() {
    return equals(DEFAULT);
  }
}
