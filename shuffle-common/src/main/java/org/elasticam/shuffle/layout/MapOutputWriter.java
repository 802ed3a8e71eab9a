package org.elasticam.shuffle.layout;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes one map task's output in the layout: partitions in ascending order into a temporary data
 * file, the index beside it, then both renamed into place, data first. The index is the commit
 * point: a reader that finds it finds the data complete. When another attempt of the same map
 * already committed, this one's files are discarded (first committer wins; map output is
 * deterministic), so a block is never served from a mix of two attempts.
 */
public final class MapOutputWriter implements Closeable {

  private final Path data;
  private final Path index;
  private final Path tmpData;
  private final Path tmpIndex;
  private final int partitions;
  private final OutputStream out;
  private final List<IndexEntry> entries = new ArrayList<>();
  private final Crc32c crc = new Crc32c();
  private long position;
  private long partitionStart;
  private boolean done;

  private MapOutputWriter(List<Path> dirs, int shuffleId, int mapId, int partitions) throws IOException {
    if (partitions < 1) {
      throw new IllegalArgumentException("a map output has at least one partition: " + partitions);
    }
    this.partitions = partitions;
    this.data = ShuffleLayout.dataFile(dirs, shuffleId, mapId);
    this.index = ShuffleLayout.indexFile(dirs, shuffleId, mapId);
    Files.createDirectories(data.getParent());
    this.tmpData = Files.createTempFile(data.getParent(), data.getFileName() + ".", ".tmp");
    this.tmpIndex = Files.createTempFile(data.getParent(), index.getFileName() + ".", ".tmp");
    this.out = new BufferedOutputStream(Files.newOutputStream(tmpData), 64 * 1024);
  }

  public static MapOutputWriter create(List<Path> dirs, int shuffleId, int mapId, int partitions) throws IOException {
    return new MapOutputWriter(dirs, shuffleId, mapId, partitions);
  }

  /** Writes and commits a whole map output: partition {@code r} is {@code blocks.get(r)}. */
  public static void writeAll(List<Path> dirs, int shuffleId, int mapId, List<byte[]> blocks) throws IOException {
    try (MapOutputWriter w = create(dirs, shuffleId, mapId, blocks.size())) {
      for (int r = 0; r < blocks.size(); r++) {
        w.write(r, blocks.get(r), 0, blocks.get(r).length);
      }
      w.commit();
    }
  }

  /** Appends bytes to partition {@code reduceId}; partitions come in ascending order. */
  public void write(int reduceId, byte[] b, int off, int len) throws IOException {
    if (done) {
      throw new IllegalStateException("already committed or closed");
    }
    if (reduceId < entries.size() || reduceId >= partitions) {
      throw new IllegalArgumentException("partition " + reduceId + " after " + entries.size()
          + " finished ones, of " + partitions);
    }
    finishUntil(reduceId);
    out.write(b, off, len);
    crc.update(b, off, len);
    position += len;
  }

  /** Closes every partition not yet finished (as empty) and entries up to {@code reduceId}. */
  private void finishUntil(int reduceId) {
    while (entries.size() < reduceId) {
      entries.add(new IndexEntry(partitionStart, position - partitionStart, (int) crc.getValue()));
      crc.reset();
      partitionStart = position;
    }
  }

  /** Finishes the remaining partitions, writes the index and moves both into place. */
  public void commit() throws IOException {
    commit(false);
  }

  /**
   * Like {@link #commit()}; with {@code replace}, an output already committed for this map is
   * replaced instead of kept. The driver asks for that when the earlier output was found lost or
   * corrupt: keeping the first committer would keep serving the corrupt file. Data then index,
   * as always: a reader in between sees the old index with the new data, which fails its
   * checksums and reads as lost, never as wrong records.
   */
  public void commit(boolean replace) throws IOException {
    if (done) {
      throw new IllegalStateException("already committed or closed");
    }
    finishUntil(partitions);
    done = true;
    out.close();
    Files.write(tmpIndex, IndexFile.encode(entries));
    if (Files.exists(index) && !replace) {
      discard();
      return;
    }
    Files.move(tmpData, data, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    Files.move(tmpIndex, index, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /** Without {@link #commit()}, discards what was written. */
  @Override
  public void close() throws IOException {
    if (!done) {
      done = true;
      out.close();
      discard();
    }
  }

  private void discard() throws IOException {
    Files.deleteIfExists(tmpData);
    Files.deleteIfExists(tmpIndex);
  }
}
