package org.elasticam.api;

import java.io.IOException;

/**
 * The records of one reduce partition of a parent stage's shuffle, from every one of its map
 * tasks, in the parent stage's {@link KeyOrder} (by default unsigned byte order; records with equal
 * keys are adjacent, in no further order). A cursor: {@link #next()} moves to the next record, then {@link #key()} and
 * {@link #value()} read it. A block that cannot be fetched makes {@link #next()} throw; the task
 * should let that exception propagate, so the driver can re-run the map output that was lost.
 */
public interface ShuffleInput {

  /** Moves to the next record; false at the end. */
  boolean next() throws IOException;

  /** The current record's key; valid until the next call to {@link #next()}. */
  byte[] key();

  /** The current record's value; valid until the next call to {@link #next()}. */
  byte[] value();
}
