package org.elasticam.api;

import java.io.IOException;

/**
 * Where a task of a stage that writes shuffle output puts its records. A record goes to reduce
 * partition {@code floorMod(Arrays.hashCode(key), partitions)}; within a partition the reducers
 * see records sorted by key (unsigned byte order). The output becomes visible to reducers only when
 * the task returns normally: a failed or killed attempt leaves nothing behind.
 */
public interface ShuffleOutput {

  /** The number of reduce partitions the stage writes. */
  int partitions();

  /** Adds a record. The arrays are copied or written before this returns; the caller may reuse them. */
  void write(byte[] key, byte[] value) throws IOException;

  /** The partition {@link #write} sends {@code key} to. */
  static int partitionOf(byte[] key, int partitions) {
    return Math.floorMod(java.util.Arrays.hashCode(key), partitions);
  }
}
