package org.elasticam.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A stage's partitioner, key order and combiner: the default partitioner is the hash rule jobs had
 * before there was a choice, a range partitioner built from a sample gives partitions that follow
 * one another in the key order, and the builder records the classes and refuses them on a stage
 * without shuffle output.
 */
class ShuffleSpecTest {

  /** A sum of longs, as a user writes it. */
  public static final class Sum extends ReducingCombiner<Long> {
    public Sum() {
      super(Serdes.LONG);
    }

    @Override
    protected Long reduce(Long a, Long b) {
      return a + b;
    }
  }

  public static final class Noop implements Task {
    @Override
    public void run(TaskContext context) {}
  }

  @Test
  void theDefaultPartitionerIsTheHashOfTheKeyBytes() {
    Random r = new Random(3);
    for (int i = 0; i < 1000; i++) {
      byte[] key = new byte[r.nextInt(20)];
      r.nextBytes(key);
      int n = 1 + r.nextInt(50);
      int expected = Math.floorMod(Arrays.hashCode(key), n);
      assertEquals(expected, new HashPartitioner().partition(key, n));
      assertEquals(expected, ShuffleOutput.partitionOf(key, n));
    }
  }

  private static List<byte[]> longs(Random r, int n) {
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      keys.add(Serdes.LONG.encode(r.nextLong() % 1_000_000));
    }
    return keys;
  }

  private static void rangesFollowEachOther(KeyOrder order) {
    Random r = new Random(7);
    int partitions = 6;
    RangePartitioner p = new RangePartitioner();
    p.configure(RangePartitioner.fromSample(longs(r, 500), partitions, order), order);
    List<byte[]> keys = longs(r, 20_000);
    List<List<byte[]>> parts = new ArrayList<>();
    for (int i = 0; i < partitions; i++) {
      parts.add(new ArrayList<>());
    }
    for (byte[] k : keys) {
      parts.get(p.partition(k, partitions)).add(k);
    }
    List<byte[]> concatenated = new ArrayList<>();
    for (List<byte[]> part : parts) {
      part.sort(order);
      concatenated.addAll(part);
      assertTrue(part.size() > keys.size() / partitions / 2, "a sample spreads the keys: " + part.size());
    }
    List<byte[]> sorted = new ArrayList<>(keys);
    sorted.sort(order);
    for (int i = 0; i < keys.size(); i++) {
      assertEquals(Serdes.LONG.decode(sorted.get(i)), Serdes.LONG.decode(concatenated.get(i)), "position " + i);
    }
  }

  @Test
  void aRangePartitionerFromASampleGivesPartitionsInKeyOrder() {
    rangesFollowEachOther(new KeyOrder.Ascending());
  }

  @Test
  void aRangePartitionerFollowsADescendingOrder() {
    rangesFollowEachOther(new KeyOrder.Descending());
  }

  @Test
  void aRangePartitionerRefusesSplitPointsOfAnotherOrderOrCount() {
    Map<String, String> ascending = RangePartitioner.fromSample(longs(new Random(1), 100), 4);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new RangePartitioner().configure(ascending, new KeyOrder.Descending()));
    assertTrue(e.getMessage().contains("not in the stage's key order"), e.getMessage());
    RangePartitioner p = new RangePartitioner();
    p.configure(ascending, new KeyOrder.Ascending());
    e = assertThrows(IllegalArgumentException.class, () -> p.partition(new byte[8], 5));
    assertTrue(e.getMessage().contains("3 split point(s)"), e.getMessage());
    assertEquals(0, onePartition().partition(new byte[] {1}, 1));
  }

  private static RangePartitioner onePartition() {
    RangePartitioner p = new RangePartitioner();
    p.configure(RangePartitioner.fromSample(List.of(), 1), new KeyOrder.Ascending());
    return p;
  }

  @Test
  void aReducingCombinerFoldsAKeysValuesIntoOne() {
    List<byte[]> out = new ArrayList<>();
    Consumer<byte[]> sink = out::add;
    new Sum().combine(new byte[0], List.of(Serdes.LONG.encode(5L), Serdes.LONG.encode(-2L), Serdes.LONG.encode(40L)),
        sink);
    assertEquals(1, out.size());
    assertEquals(43L, Serdes.LONG.decode(out.get(0)));
  }

  @Test
  void theBuilderNamesTheClassesAndAStageWithoutShuffleRefusesThem() {
    Stage s = Stage.builder(0, "map", Noop.class).tasks(2).writesShuffle(3).keyOrder(KeyOrder.Descending.class)
        .partitioner(RangePartitioner.class, Map.of("a", "1")).combiner(Sum.class).shuffleParams(Map.of("b", "2"))
        .build();
    assertEquals(new ShuffleSpec(RangePartitioner.class.getName(), "org.elasticam.api.KeyOrder$Descending",
        Sum.class.getName(), Map.of("a", "1", "b", "2")), s.shuffle());
    assertTrue(new Stage(1, "old", List.of(), Noop.class.getName(), List.of(TaskSpec.EMPTY), 2).shuffle().isDefault());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Stage.builder(4, "sink", Noop.class).tasks(1).combiner(Sum.class).build());
    assertEquals("stage 4 (sink) sets a partitioner, key order, combiner or shuffle parameters but writes no"
        + " shuffle output: give it writesShuffle(partitions)", e.getMessage());
  }
}
