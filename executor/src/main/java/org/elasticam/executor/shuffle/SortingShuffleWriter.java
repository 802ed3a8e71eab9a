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
import org.elasticam.api.KeyGroups;
import org.elasticam.api.Serdes;
import org.elasticam.api.ShuffleOutput;
import org.elasticam.shuffle.layout.MapOutputWriter;

/**
 * A map task's shuffle output: records partitioned by the stage's partitioner, buffered in memory
 * up to a bound, each full buffer sorted by (partition, key in the stage's key order) and spilled to
 * a run file; at commit every partition's runs are merged in key order into the task's data file
 * and index ({@link MapOutputWriter}). With a combiner, each run of equal keys is combined as it is
 * spilled, and again as the runs are merged, so its memory is the buffer's, whatever a key's count.
 * One task writes it: not thread-safe.
 */
public final class SortingShuffleWriter implements ShuffleOutput, java.io.Closeable {

  /** What a buffered record costs beyond its bytes: the record object, two arrays, the list slot. */
  private static final int RECORD_OVERHEAD = 64;

  private final List<Path> dirs;
  private final int shuffleId;
  private final int mapId;
  private final int partitions;
  private final long memoryLimit;
  private final Path spillDir;
  private final ShuffleFunctions functions;
  private final Comparator<Rec> order;
  private final List<Rec> buffer = new ArrayList<>();
  private final List<Run> runs = new ArrayList<>();
  private long buffered;
  private boolean done;

  /** Hash partitions, unsigned byte order, no combiner. */
  public SortingShuffleWriter(List<Path> dirs, int shuffleId, int mapId, int partitions, long memoryLimitBytes,
      Path spillDir) {
    this(dirs, shuffleId, mapId, partitions, memoryLimitBytes, spillDir, ShuffleFunctions.DEFAULT);
  }

  public SortingShuffleWriter(List<Path> dirs, int shuffleId, int mapId, int partitions, long memoryLimitBytes,
      Path spillDir, ShuffleFunctions functions) {
    if (partitions < 1) {
      throw new IllegalArgumentException("a shuffle has at least one partition: " + partitions);
    }
    this.dirs = List.copyOf(dirs);
    this.shuffleId = shuffleId;
    this.mapId = mapId;
    this.partitions = partitions;
    this.memoryLimit = memoryLimitBytes;
    this.spillDir = spillDir;
    this.functions = functions;
    this.order = Comparator.<Rec>comparingInt(r -> r.partition).thenComparing((a, b) -> functions.order()
        .compare(a.key, b.key));
  }

  @Override
  public int partitions() {
    return partitions;
  }

  @Override
  public void write(byte[] key, byte[] value) throws IOException {
    add(key.clone(), value.clone());
  }

  /** Keeps the arrays as they are: the caller hands them over. */
  @Override
  public void writeOwned(byte[] key, byte[] value) throws IOException {
    add(key, value);
  }

  private void add(byte[] key, byte[] value) throws IOException {
    if (done) {
      throw new IllegalStateException("the shuffle output is already committed or discarded");
    }
    buffer.add(new Rec(partitionOf(key), key, value));
    buffered += key.length + value.length + RECORD_OVERHEAD;
    if (buffered >= memoryLimit) {
      spill();
    }
  }

  /**
   * The stage's partitioner's partition for {@code key}.
   *
   * @throws IllegalStateException when the partitioner gives one the stage does not have
   */
  @Override
  public int partitionOf(byte[] key) {
    int p = functions.partitioner().partition(key, partitions);
    if (p < 0 || p >= partitions) {
      throw new IllegalStateException("the partitioner " + functions.partitioner().getClass().getName()
          + " sent a key to partition " + p + ", outside 0 … " + (partitions - 1) + " of the stage's " + partitions);
    }
    return p;
  }

  /**
   * Sorts the buffer and writes it as one run: each partition's records contiguous, in key order,
   * each run of equal keys combined when the stage has a combiner.
   */
  private void spill() throws IOException {
    buffer.sort(order);
    Files.createDirectories(spillDir);
    Path file = Files.createTempFile(spillDir, "map-" + mapId + "-run-", ".spill");
    long[] offsets = new long[partitions + 1];
    try (CountingStream out = new CountingStream(new BufferedOutputStream(Files.newOutputStream(file), 64 * 1024))) {
      int p = 0;
      for (int i = 0; i < buffer.size(); ) {
        Rec r = buffer.get(i);
        while (p < r.partition) {
          offsets[++p] = out.count;
        }
        int end = i + 1;
        while (functions.combiner() != null && end < buffer.size() && buffer.get(end).partition == r.partition
            && Arrays.equals(buffer.get(end).key, r.key)) {
          end++;
        }
        if (end == i + 1) {
          Records.write(out, r.key, r.value);
        } else {
          for (byte[] v : combine(r.key, buffer.subList(i, end).stream().map(Rec::value).toList())) {
            Records.write(out, r.key, v);
          }
        }
        i = end;
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
    buffer.sort(order);
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
        try (SortedMerge merge = SortedMerge.of(blocks, functions.order())) {
          lengths[p] = functions.combiner() == null ? copy(merge, out, p) : combine(merge, out, p);
        }
      }
      out.commit(replaceExisting);
    } finally {
      discard();
    }
    return lengths;
  }

  /** Writes the merged records as they come; their bytes. */
  private static long copy(SortedMerge merge, MapOutputWriter out, int p) throws IOException {
    long length = 0;
    while (merge.next()) {
      length += write(out, p, merge.key(), merge.value());
    }
    return length;
  }

  /** Writes each key's merged values combined, streamed: one value in memory at a time; their bytes. */
  private long combine(SortedMerge merge, MapOutputWriter out, int p) throws IOException {
    long length = 0;
    KeyGroups<byte[], byte[]> groups = KeyGroups.of(merge, Serdes.BYTES, Serdes.BYTES);
    while (groups.next()) {
      byte[] key = groups.key();
      for (byte[] v : combine(key, groups.values())) {
        length += write(out, p, key, v);
      }
    }
    return length;
  }

  private static int write(MapOutputWriter out, int p, byte[] key, byte[] value) throws IOException {
    byte[] rec = Records.encode(key, value);
    out.write(p, rec, 0, rec.length);
    return rec.length;
  }

  /** The combiner's values for one key's. */
  private List<byte[]> combine(byte[] key, Iterable<byte[]> values) {
    List<byte[]> combined = new ArrayList<>();
    functions.combiner().combine(key, values, combined::add);
    return combined;
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
