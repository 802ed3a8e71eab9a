package org.elasticam.executor.tasks;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.elasticam.api.Counter;
import org.elasticam.api.Counters;
import org.elasticam.api.ShuffleInput;
import org.elasticam.api.ShuffleOutput;
import org.elasticam.api.TaskContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reduce side's output commit, on the local file system. */
class WordCountReduceTaskTest {

  @TempDir
  Path out;
  /** What the task counted. */
  private final Map<String, AtomicLong> counters = new HashMap<>();

  @Test
  void thePartReplacesWhatAKilledAttemptLeftBehindAndOnlyForItsPartition() throws Exception {
    // Attempt 0 of partition 1 died with its executor mid-write; partition 2's attempt is still running.
    Files.writeString(out.resolve(".part-00001.attempt-0-3"), "half a fi");
    Files.writeString(out.resolve(".part-00002.attempt-0-4"), "being written");
    new WordCountReduceTask().run(context(1, 1, List.of(
        Map.entry("apple", 2L), Map.entry("apple", 3L), Map.entry("pear", 1L))));
    assertEquals("apple\t5\npear\t1\n", Files.readString(out.resolve("part-00001")));
    assertEquals(2, counters.get(Counters.OUTPUT_RECORDS).get());
    assertEquals("apple\t5\npear\t1\n".length(), counters.get(Counters.OUTPUT_BYTES).get());
    try (Stream<Path> files = Files.list(out)) {
      assertEquals(List.of(".part-00002.attempt-0-4", "part-00001"),
          files.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".crc")).sorted().toList());
    }
  }

  @Test
  void anAttemptTheDriverDoesNotLetCommitPublishesNothingAndRemovesItsFile() throws Exception {
    Files.writeString(out.resolve("part-00001"), "apple\t5\n");
    new WordCountReduceTask().run(context(1, 2, List.of(Map.entry("apple", 7L)), false));
    assertEquals("apple\t5\n", Files.readString(out.resolve("part-00001")), "the winner's part stays");
    try (Stream<Path> files = Files.list(out)) {
      assertEquals(List.of("part-00001"),
          files.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".crc")).sorted().toList());
    }
  }

  private TaskContext context(int partition, int attempt, List<Map.Entry<String, Long>> records) {
    return context(partition, attempt, records, true);
  }

  /**
   * Partition {@code partition}, attempt {@code attempt} on executor 5, reading {@code records} in
   * key order; the driver answers {@code mayCommit} when asked.
   */
  private TaskContext context(int partition, int attempt, List<Map.Entry<String, Long>> records, boolean mayCommit) {
    Iterator<Map.Entry<String, Long>> it = records.iterator();
    ShuffleInput input = new ShuffleInput() {
      private Map.Entry<String, Long> current;

      @Override
      public boolean next() {
        current = it.hasNext() ? it.next() : null;
        return current != null;
      }

      @Override
      public byte[] key() {
        return current.getKey().getBytes(StandardCharsets.UTF_8);
      }

      @Override
      public byte[] value() {
        return WordCountReduceTask.encodeCount(current.getValue());
      }
    };
    return new TaskContext() {
      @Override
      public int stageId() {
        return 1;
      }

      @Override
      public int partition() {
        return partition;
      }

      @Override
      public int attempt() {
        return attempt;
      }

      @Override
      public String executorId() {
        return "5";
      }

      @Override
      public String host() {
        return "localhost";
      }

      @Override
      public Map<String, String> params() {
        return Map.of("output", out.toUri().toString());
      }

      @Override
      public Path scratchDir() {
        return out;
      }

      @Override
      public boolean isKilled() {
        return false;
      }

      @Override
      public boolean canCommit() {
        return mayCommit;
      }

      @Override
      public ShuffleOutput shuffleOutput() {
        throw new IllegalStateException("a reduce task writes no shuffle");
      }

      @Override
      public ShuffleInput shuffleInput(int parentStageId) {
        return input;
      }

      @Override
      public Counter counter(String name) {
        AtomicLong c = counters.computeIfAbsent(name, k -> new AtomicLong());
        return new Counter() {
          @Override
          public void add(long n) {
            c.addAndGet(n);
          }

          @Override
          public long value() {
            return c.get();
          }
        };
      }
    };
  }
}
