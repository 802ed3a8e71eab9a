package org.elasticam.bench.shuffle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.elasticam.api.Serdes;
import org.elasticam.api.ShuffleOutput;
import org.elasticam.api.TypedShuffleOutput;
import org.elasticam.executor.shuffle.SortingShuffleWriter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A map task's shuffle output written whole, as the executor writes it: 500,000 word-count records
 * (keys of 50,000 distinct words, 4–16 bytes; 8-byte counts) into 8 partitions through the sorting
 * writer, with a buffer that makes it spill twice, then committed to data and index files. Once as
 * raw bytes, once through {@code TypedShuffleOutput} (bytes and longs): what the typed layer costs
 * beside the bytes it carries. Run against the writer of another commit by putting that commit's
 * executor and api classes first on the classpath (BENCHMARKS.md).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 10, time = 2)
@Fork(value = 2, jvmArgs = {"-Xmx1g"})
public class MapOutputWriteBenchmark {

  static final int RECORDS = 500_000;
  static final int WORDS = 50_000;
  static final int PARTITIONS = 8;
  /** About a third of the records' buffered size: two spills and the last run in memory. */
  static final long BUFFER_BYTES = 12L << 20;

  private byte[][] words;
  private int[] order;
  private Path root;
  private int map;

  @Setup
  public void setUp() throws IOException {
    Random r = new Random(26);
    words = new byte[WORDS][];
    for (int i = 0; i < WORDS; i++) {
      StringBuilder w = new StringBuilder();
      int len = 4 + r.nextInt(13);
      for (int j = 0; j < len; j++) {
        w.append((char) ('a' + r.nextInt(26)));
      }
      words[i] = w.toString().getBytes(StandardCharsets.US_ASCII);
    }
    order = new int[RECORDS];
    for (int i = 0; i < RECORDS; i++) {
      // Zipf-like: a few words often, most rarely, as in text.
      order[i] = (int) Math.min(WORDS - 1, Math.floor(Math.pow(WORDS, r.nextDouble())) - 1);
    }
    root = Files.createTempDirectory("map-output-bench");
  }

  @TearDown
  public void tearDown() throws IOException {
    try (Stream<Path> s = Files.walk(root)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  private SortingShuffleWriter writer() throws IOException {
    int m = map++;
    Path dir = Files.createDirectories(root.resolve("local-" + m));
    return new SortingShuffleWriter(List.of(dir), 0, m, PARTITIONS, BUFFER_BYTES, root.resolve("spill-" + m));
  }

  @Benchmark
  public long[] rawBytes() throws IOException {
    try (SortingShuffleWriter w = writer()) {
      byte[] count = new byte[8];
      for (int i = 0; i < RECORDS; i++) {
        count[7] = (byte) i;
        w.write(words[order[i]], count);
      }
      return w.commit(false);
    }
  }

  @Benchmark
  public long[] typed() throws IOException {
    try (SortingShuffleWriter w = writer()) {
      TypedShuffleOutput<byte[], Long> out = TypedShuffleOutput.of((ShuffleOutput) w, Serdes.BYTES, Serdes.LONG);
      for (int i = 0; i < RECORDS; i++) {
        out.write(words[order[i]], (long) i);
      }
      return w.commit(false);
    }
  }
}
