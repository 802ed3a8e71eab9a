package org.elasticam.api;

import java.io.IOException;

/**
 * Where a task of a stage that writes shuffle output puts its records. A record goes to the reduce
 * partition the stage's {@link Partitioner} gives its key (by default {@link HashPartitioner}:
 * {@code floorMod(Arrays.hashCode(key), partitions)}); within a partition the reducers see records
 * sorted in the stage's {@link KeyOrder} (by default unsigned byte order), after the stage's
 * {@link Combiner}, if any, combined some of each key's values. The output becomes visible to reducers only when
 * the task returns normally: a failed or killed attempt leaves nothing behind.
 */
public interface ShuffleOutput {

  /** The number of reduce partitions the stage writes. */
  int partitions();

  /** Adds a record. The arrays are copied or written before this returns; the caller may reuse them. */
  void write(byte[] key, byte[] value) throws IOException;

  /**
   * Adds a record whose arrays the caller hands over: it never changes them afterwards, so the
   * output may keep them rather than copy them ({@link TypedShuffleOutput} writes the new arrays
   * its {@link Serde}s made this way). By default, {@link #write}.
   */
  default void writeOwned(byte[] key, byte[] value) throws IOException {
    write(key, value);
  }

  /** The partition {@link #write} sends {@code key} to: the stage's partitioner's. */
  default int partitionOf(byte[] key) {
    return HashPartitioner.of(key, partitions());
  }

  /** The partition the default {@link HashPartitioner} sends {@code key} to. */
  static int partitionOf(byte[] key, int partitions) {
    return HashPartitioner.of(key, partitions);
  }
}
