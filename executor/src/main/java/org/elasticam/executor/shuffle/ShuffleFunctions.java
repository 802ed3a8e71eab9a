package org.elasticam.executor.shuffle;

import java.util.Objects;
import org.elasticam.api.Combiner;
import org.elasticam.api.HashPartitioner;
import org.elasticam.api.KeyOrder;
import org.elasticam.api.Partitioner;

/**
 * A map task's stage's partitioner, key order and combiner, loaded and configured.
 *
 * @param combiner null when the stage has none
 */
public record ShuffleFunctions(Partitioner partitioner, KeyOrder order, Combiner combiner) {

  /** Hash partitions, unsigned byte order, no combiner. */
  public static final ShuffleFunctions DEFAULT = new ShuffleFunctions(new HashPartitioner(), new KeyOrder.Ascending(),
      null);

  public ShuffleFunctions {
    Objects.requireNonNull(partitioner, "partitioner");
    Objects.requireNonNull(order, "order");
  }
}
