package org.elasticam.shuffle.layout;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.elasticam.shuffle.protocol.BlockHeader;

/**
 * Writes one map task's output in the layout: partitions in ascending order into a temporary data
 * file, each block preceded by its fetch-response header (so that a server sends header and block
 * in one read of the file; the index says so, {@link IndexFile#HEADERS_IN_DATA}), the index beside
 * it, then both renamed into place, data first. The index is the commit
 * point: a reader that finds it finds the data complete. When another attempt of the same map
 * already committed, this one's files are discarded (first committer wins; map output is
 * deterministic), so a block is never served from a mix of two attempts.
 */
public final class MapOutputWriter implements Closeable {

  private final Path data;
  private final Path index;
  private final Path tmpData;
  private final Path tmpIndex;
  private final int mapId;
  private final int partitions;
  private final OutputStream out;
  private final List<IndexEntry> entries = new ArrayList<>();
  private final Crc32c crc = new Crc32c();
  private long position;
  private long partitionStart;
  private boolean headerReserved;
  private boolean done;

  private MapOutputWriter(List<Path> dirs, int shuffleId, int mapId, int partitions) throws IOException {
    if (partitions < 1) {
      throw new IllegalArgumentException("a map output has at least one partition: " + partitions);
    }
    this.mapId = mapId;
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

  /**
   * Closes every partition not yet finished (as empty) and entries up to {@code reduceId}, and
   * leaves room for the header of partition {@code reduceId} (when there is one): headers are
   * written into their places at the commit, once each block's length and checksum are known.
   */
  private void finishUntil(int reduceId) throws IOException {
    while (entries.size() < reduceId) {
      if (!headerReserved) {
        reserveHeader();
      }
      entries.add(new IndexEntry(partitionStart, position - partitionStart, (int) crc.getValue(), true));
      crc.reset();
      headerReserved = false;
    }
    if (!headerReserved && reduceId < partitions) {
      reserveHeader();
    }
  }

  private void reserveHeader() throws IOException {
    out.write(new byte[BlockHeader.SIZE]);
    position += BlockHeader.SIZE;
    partitionStart = position;
    headerReserved = true;
  }

  /** Each block's header into the room left before it. */
  private void writeHeaders() throws IOException {
    ByteBuffer h = ByteBuffer.allocate(BlockHeader.SIZE);
    try (FileChannel ch = FileChannel.open(tmpData, StandardOpenOption.WRITE)) {
      for (int r = 0; r < entries.size(); r++) {
        IndexEntry e = entries.get(r);
        h.clear();
        new BlockHeader(mapId, r, e.length(), e.crc32c()).writeTo(h);
        h.flip();
        long at = e.offset() - BlockHeader.SIZE;
        while (h.hasRemaining()) {
          at += ch.write(h, at);
        }
      }
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
    writeHeaders();
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
