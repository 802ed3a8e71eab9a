package org.elasticam.executor.shuffle;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import org.elasticam.api.ShuffleInput;

/** The records of blocks sorted in one key order, merged in that order. */
public final class SortedMerge implements ShuffleInput, Closeable {

  private final PriorityQueue<Cursor> heap;
  private final List<InputStream> open = new ArrayList<>();
  private Cursor current;
  private byte[] key;
  private byte[] value;

  private SortedMerge(Comparator<byte[]> order) {
    heap = new PriorityQueue<>((a, b) -> order.compare(a.key(), b.key()));
  }

  /** Blocks sorted in unsigned byte order. */
  public static SortedMerge of(List<BlockSource> blocks) throws IOException {
    return of(blocks, ShuffleFunctions.DEFAULT.order());
  }

  /** Blocks each sorted in {@code order}. */
  public static SortedMerge of(List<BlockSource> blocks, Comparator<byte[]> order) throws IOException {
    SortedMerge m = new SortedMerge(order);
    try {
      for (BlockSource b : blocks) {
        InputStream in = b.open();
        m.open.add(in);
        Cursor c = new Cursor(new Records.Reader(in, b.length()));
        if (c.reader.next()) {
          m.heap.add(c);
        }
      }
    } catch (IOException | RuntimeException e) {
      m.close();
      throw e;
    }
    return m;
  }

  @Override
  public boolean next() throws IOException {
    if (current != null && current.reader.next()) {
      heap.add(current);
    }
    current = heap.poll();
    if (current == null) {
      key = null;
      value = null;
      return false;
    }
    key = current.key();
    value = current.reader.value();
    return true;
  }

  @Override
  public byte[] key() {
    return key;
  }

  @Override
  public byte[] value() {
    return value;
  }

  @Override
  public void close() throws IOException {
    for (InputStream in : open) {
      in.close();
    }
    open.clear();
  }

  private record Cursor(Records.Reader reader) {
    byte[] key() {
      return reader.key();
    }
  }
}
