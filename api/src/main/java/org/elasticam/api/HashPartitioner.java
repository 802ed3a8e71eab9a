package org.elasticam.api;

import java.util.Arrays;

/**
 * The default partitioner: a key goes to partition {@code floorMod(Arrays.hashCode(key), partitions)},
 * which spreads distinct keys evenly but keeps no order between partitions.
 */
public final class HashPartitioner implements Partitioner {

  @Override
  public int partition(byte[] key, int partitions) {
    return of(key, partitions);
  }

  /** The partition this partitioner gives {@code key}. */
  public static int of(byte[] key, int partitions) {
    return Math.floorMod(Arrays.hashCode(key), partitions);
  }
}
