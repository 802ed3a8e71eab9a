package org.elasticam.shuffle.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The blocks of one fetch, in request order (map ascending, then reduce ascending). They count
 * against the client's bytes in flight until {@link #close()}: close them once consumed, or later
 * fetches wait.
 */
public final class FetchedBlocks implements AutoCloseable {

  private final List<FetchedBlock> blocks;
  private final long bytes;
  private final Runnable release;
  private final AtomicBoolean closed = new AtomicBoolean();

  FetchedBlocks(List<FetchedBlock> blocks, long bytes, Runnable release) {
    this.blocks = Collections.unmodifiableList(new ArrayList<>(blocks));
    this.bytes = bytes;
    this.release = release;
  }

  public List<FetchedBlock> blocks() {
    return blocks;
  }

  /** Bytes of the response, headers included: what this holds of the client's budget. */
  public long bytes() {
    return bytes;
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      release.run();
    }
  }
}
