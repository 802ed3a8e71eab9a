package org.elasticam.executor.shuffle;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.elasticam.api.ShuffleOutput;
import org.elasticam.shuffle.layout.MapOutputWriter;

/**
 * A map task's shuffle output: records partitioned by key, buffered in memory up to a bound, each
 * full buffer sorted by (partition, key) and spilled to a run file; at commit every partition's
 * runs are merged in key order into the task's data file and index ({@link MapOutputWriter}).
 * One task writes it: not thread-safe.
 */
public final class SortingShuffleWriter implements ShuffleOutput, java.io.Closeable {

  /** What a buffered record costs beyond its bytes: the record object, two arrays, the list slot. */
  private static final int RECORD_OVERHEAD = 64;
  private static final Comparator<Rec> ORDER = Comparator.<Rec>comparingInt(r -> r.partition)
      .thenComparing((a, b) -> Arrays.compareUnsigned(a.key, b.key));

  private final List<Path> dirs;
  private final int shuffleId;
  private final int mapId;
  private final int partitions;
  private final long memoryLimit;
  private final Path spillDir;
  private final List<Rec> buffer = new ArrayList<>();
  private final List<Run> runs = new ArrayList<>();
  private long buffered;
  private boolean done;

  public SortingShuffleWriter(List<Path> dirs, int shuffleId, int mapId, int partitions, long memoryLimitBytes,
      Path spillDir) {
    if (partitions < 1) {
      throw new IllegalArgumentException("a shuffle has at least one partition: " + partitions);
    }
    this.dirs = List.copyOf(dirs);
    this.shuffleId = shuffleId;
    this.mapId = mapId;
    this.partitions = partitions;
    this.memoryLimit = memoryLimitBytes;
    this.spillDir = spillDir;
  }

  @Override
  public int partitions() {
    return partitions;
  }

  @Override
  public void write(byte[] key, byte[] value) throws IOException {
    if (done) {
      throw new IllegalStateException("the shuffle output is already committed or discarded");
    }
    buffer.add(new Rec(ShuffleOutput.partitionOf(key, partitions), key.clone(), value.clone()));
    buffered += key.length + value.length + RECORD_OVERHEAD;
    if (buffered >= memoryLimit) {
      spill();
    }
  }

  /** Sorts the buffer and writes it as one run: each partition's records contiguous, in key order. */
  private void spill() throws IOException {
    buffer.sort(ORDER);
    Files.createDirectories(spillDir);
    Path file = Files.createTempFile(spillDir, "map-" + mapId + "-run-", ".spill");
    long[] offsets = new long[partitions + 1];
    try (CountingStream out = new CountingStream(new BufferedOutputStream(Files.newOutputStream(file), 64 * 1024))) {
      int p = 0;
      for (Rec r : buffer) {
        while (p < r.partition) {
          offsets[++p] = out.count;
        }
        Records.write(out, r.key, r.value);
      }
      while (p < partitions) {
        offsets[++p] = out.count;
      }
    }
    runs.add(new Run(file, offsets));
    buffer.clear();
    buffered = 0;
  }

  /**
   * Merges everything written into the map's committed output.
   *
   * @param replaceExisting the driver knows an earlier output of this map is lost or corrupt: replace it
   * @return the byte length of each partition's block
   */
  public long[] commit(boolean replaceExisting) throws IOException {
    if (done) {
      throw new IllegalStateException("the shuffle output is already committed or discarded");
    }
    buffer.sort(ORDER);
    long[] lengths = new long[partitions];
    try (MapOutputWriter out = MapOutputWriter.create(dirs, shuffleId, mapId, partitions)) {
      int next = 0;
      for (int p = 0; p < partitions; p++) {
        List<BlockSource> blocks = new ArrayList<>();
        ByteArrayOutputStream mem = new ByteArrayOutputStream();
        while (next < buffer.size() && buffer.get(next).partition == p) {
          Records.write(mem, buffer.get(next).key, buffer.get(next).value);
          next++;
        }
        if (mem.size() > 0) {
          blocks.add(new BlockSource.InMemory(mem.toByteArray()));
        }
        for (Run run : runs) {
          long len = run.offsets[p + 1] - run.offsets[p];
          if (len > 0) {
            blocks.add(new BlockSource.FileRegion(run.file, run.offsets[p], len));
          }
        }
        try (SortedMerge merge = SortedMerge.of(blocks)) {
          while (merge.next()) {
            byte[] rec = Records.encode(merge.key(), merge.value());
            out.write(p, rec, 0, rec.length);
            lengths[p] += rec.length;
          }
        }
      }
      out.commit(replaceExisting);
    } finally {
      discard();
    }
    return lengths;
  }

  /** Without a commit: drops everything written. Idempotent. */
  @Override
  public void close() throws IOException {
    discard();
  }

  private void discard() throws IOException {
    done = true;
    buffer.clear();
    for (Run r : runs) {
      Files.deleteIfExists(r.file);
    }
    runs.clear();
  }

  private record Rec(int partition, byte[] key, byte[] value) {}

  private record Run(Path file, long[] offsets) {}

  private static final class CountingStream extends java.io.FilterOutputStream {
    long count;

    CountingStream(OutputStream out) {
      super(out);
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      count += len;
    }
  }
}
