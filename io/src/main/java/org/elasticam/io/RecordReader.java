package org.elasticam.io;

import java.io.Closeable;
import java.io.IOException;

/** The records of one split, as a cursor: {@link #next()} moves on, {@link #current()} reads. */
public interface RecordReader<T> extends Closeable {

  /** Moves to the next record of the split; false after its last. */
  boolean next() throws IOException;

  /** The current record; valid until the next call to {@link #next()} (a reader may reuse it). */
  T current();

  /** Bytes of the file read so far (past the split's end for its last record). */
  long bytesRead();
}
