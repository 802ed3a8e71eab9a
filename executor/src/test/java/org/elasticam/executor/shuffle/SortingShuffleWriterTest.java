package org.elasticam.executor.shuffle;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.elasticam.api.Combiner;
import org.elasticam.api.HashPartitioner;
import org.elasticam.api.KeyOrder;
import org.elasticam.api.Partitioner;
import org.elasticam.api.ReducingCombiner;
import org.elasticam.api.Serdes;
import org.elasticam.api.ShuffleOutput;
import org.elasticam.shuffle.layout.IndexEntry;
import org.elasticam.shuffle.layout.IndexFile;
import org.elasticam.shuffle.layout.ShuffleLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SortingShuffleWriterTest {

  private static final int PARTITIONS = 5;

  @TempDir
  Path tmp;

  private List<byte[][]> records(long seed, int n) {
    Random r = new Random(seed);
    List<byte[][]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] k = new byte[1 + r.nextInt(12)];
      r.nextBytes(k);
      byte[] v = new byte[r.nextInt(i == 7 ? 300_000 : 30)];
      r.nextBytes(v);
      out.add(new byte[][] {k, v});
    }
    return out;
  }

  private long[] write(Path dirs, int mapId, long memory, List<byte[][]> recs, boolean replace) throws IOException {
    return write(dirs, mapId, memory, recs, replace, ShuffleFunctions.DEFAULT);
  }

  private long[] write(Path dirs, int mapId, long memory, List<byte[][]> recs, boolean replace,
      ShuffleFunctions functions) throws IOException {
    try (SortingShuffleWriter w = new SortingShuffleWriter(List.of(dirs), 0, mapId, PARTITIONS, memory,
        tmp.resolve("spill"), functions)) {
      for (byte[][] r : recs) {
        w.write(r[0], r[1]);
      }
      return w.commit(replace);
    }
  }

  /** Partition p of a committed map, decoded. */
  private static List<byte[][]> read(Path dir, int mapId, int p) throws IOException {
    IndexEntry e;
    try (FileChannel index = FileChannel.open(ShuffleLayout.indexFile(List.of(dir), 0, mapId), StandardOpenOption.READ)) {
      e = IndexFile.read(index, p, p).get(0);
    }
    byte[] data = Files.readAllBytes(ShuffleLayout.dataFile(List.of(dir), 0, mapId));
    BlockSource block = new BlockSource.InMemory(Arrays.copyOfRange(data, (int) e.offset(), (int) e.end()));
    List<byte[][]> out = new ArrayList<>();
    try (SortedMerge m = SortedMerge.of(List.of(block))) {
      while (m.next()) {
        out.add(new byte[][] {m.key(), m.value()});
      }
    }
    return out;
  }

  @Test
  void everyRecordLandsInItsPartitionInKeyOrderWithOrWithoutSpills() throws IOException {
    List<byte[][]> recs = records(1, 3000);
    Path noSpill = Files.createDirectories(tmp.resolve("a"));
    Path spills = Files.createDirectories(tmp.resolve("b"));
    long[] lengths = write(noSpill, 0, 1L << 30, recs, false);
    write(spills, 0, 4096, recs, false);
    for (int p = 0; p < PARTITIONS; p++) {
      // Equal keys come in no particular order, so compare the records, not the bytes.
      assertEquals(canonical(read(noSpill, 0, p)), canonical(read(spills, 0, p)), "spilling changes no record");
    }
    int total = 0;
    for (int p = 0; p < PARTITIONS; p++) {
      List<byte[][]> got = read(noSpill, 0, p);
      total += got.size();
      for (int i = 0; i < got.size(); i++) {
        assertEquals(p, ShuffleOutput.partitionOf(got.get(i)[0], PARTITIONS));
        assertTrue(i == 0 || Arrays.compareUnsigned(got.get(i - 1)[0], got.get(i)[0]) <= 0, "key order");
      }
      assertTrue(lengths[p] > 0);
    }
    assertEquals(recs.size(), total);
    try (Stream<Path> left = Files.list(tmp.resolve("spill"))) {
      assertEquals(0, left.count(), "spill files are gone after the commit");
    }
  }

  /**
   * write copies what the caller may reuse (here one buffer for every record, overwritten after
   * each write); writeOwned keeps arrays handed over; both give the same output.
   */
  @Test
  void writeCopiesReusedArraysAndWriteOwnedKeepsHandedOverOnesToTheSameOutput() throws IOException {
    List<byte[][]> recs = records(3, 2000);
    Path reused = Files.createDirectories(tmp.resolve("reused"));
    Path owned = Files.createDirectories(tmp.resolve("owned"));
    try (SortingShuffleWriter w = new SortingShuffleWriter(List.of(reused), 0, 0, PARTITIONS, 16_384,
        tmp.resolve("spill"))) {
      byte[] key = new byte[64];
      byte[] value = new byte[64];
      for (byte[][] r : recs) {
        byte[] k = Arrays.copyOf(key, r[0].length);
        byte[] v = Arrays.copyOf(value, r[1].length);
        System.arraycopy(r[0], 0, k, 0, k.length);
        System.arraycopy(r[1], 0, v, 0, v.length);
        w.write(k, v);
        Arrays.fill(k, (byte) 0x7f);
        Arrays.fill(v, (byte) 0x7f);
      }
      w.commit(false);
    }
    try (SortingShuffleWriter w = new SortingShuffleWriter(List.of(owned), 0, 0, PARTITIONS, 16_384,
        tmp.resolve("spill"))) {
      for (byte[][] r : recs) {
        w.writeOwned(r[0].clone(), r[1].clone());
      }
      w.commit(false);
    }
    List<String> expected = canonical(recs);
    List<String> fromReused = new ArrayList<>();
    List<String> fromOwned = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      fromReused.addAll(canonical(read(reused, 0, p)));
      fromOwned.addAll(canonical(read(owned, 0, p)));
    }
    assertEquals(expected, fromReused.stream().sorted().toList());
    assertEquals(expected, fromOwned.stream().sorted().toList());
  }

  private static List<String> canonical(List<byte[][]> recs) {
    return recs.stream().map(r -> java.util.HexFormat.of().formatHex(r[0]) + "/"
        + java.util.HexFormat.of().formatHex(r[1])).sorted().toList();
  }

  @Test
  void aReRunReplacesACorruptOutputWhereAPlainCommitKeepsTheFirst() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("d"));
    List<byte[][]> recs = records(2, 200);
    write(dir, 3, 1L << 20, recs, false);
    Path data = ShuffleLayout.dataFile(List.of(dir), 0, 3);
    byte[] good = Files.readAllBytes(data);
    byte[] bad = good.clone();
    bad[bad.length / 2] ^= 0x7f;
    Files.write(data, bad);
    write(dir, 3, 1L << 20, recs, false);
    assertArrayEquals(bad, Files.readAllBytes(data), "first committer wins");
    write(dir, 3, 1L << 20, recs, true);
    assertArrayEquals(good, Files.readAllBytes(data), "the re-run replaced the corrupt output");
  }

  @Test
  void closedWithoutACommitLeavesNothing() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("e"));
    try (SortingShuffleWriter w = new SortingShuffleWriter(List.of(dir), 0, 1, PARTITIONS, 100, tmp.resolve("s"))) {
      for (byte[][] r : records(3, 50)) {
        w.write(r[0], r[1]);
      }
    }
    try (Stream<Path> files = Files.walk(tmp)) {
      assertEquals(List.of(), files.filter(Files::isRegularFile).toList());
    }
  }

  @Test
  void aMergeOverMemoryAndSpilledBlocksYieldsOneKeyOrder() throws IOException {
    try (BlockBuffer buffer = new BlockBuffer(100, tmp.resolve("fetched"))) {
      List<String> all = new ArrayList<>();
      for (int b = 0; b < 6; b++) {
        java.io.ByteArrayOutputStream block = new java.io.ByteArrayOutputStream();
        for (int i = b; i < 60; i += 6) {
          String k = String.format("k%03d", i);
          all.add(k);
          Records.write(block, k.getBytes(StandardCharsets.UTF_8), new byte[] {(byte) b});
        }
        buffer.add(block.toByteArray());
      }
      List<String> merged = new ArrayList<>();
      try (SortedMerge m = SortedMerge.of(buffer.sources())) {
        while (m.next()) {
          merged.add(new String(m.key(), StandardCharsets.UTF_8));
        }
      }
      all.sort(null);
      assertEquals(all, merged);
    }
  }

  /** Sends a key to the partition of its first byte, as a user's partitioner might. */
  private static final Partitioner FIRST_BYTE = (key, n) -> key.length == 0 ? 0 : (key[0] & 0xff) % n;

  @Test
  void theStagesPartitionerPlacesEveryRecordAndOneOutOfRangeFailsTheWrite() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("p"));
    List<byte[][]> recs = records(4, 2000);
    write(dir, 0, 4096, recs, false, new ShuffleFunctions(FIRST_BYTE, new KeyOrder.Ascending(), null));
    int total = 0;
    for (int p = 0; p < PARTITIONS; p++) {
      for (byte[][] r : read(dir, 0, p)) {
        assertEquals(p, FIRST_BYTE.partition(r[0], PARTITIONS));
        total++;
      }
    }
    assertEquals(recs.size(), total);
    Partitioner tooFar = (key, n) -> n;
    try (SortingShuffleWriter w = new SortingShuffleWriter(List.of(dir), 0, 1, PARTITIONS, 1 << 20, tmp.resolve("s"),
        new ShuffleFunctions(tooFar, new KeyOrder.Ascending(), null))) {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> w.write(new byte[] {1}, new byte[0]));
      assertTrue(e.getMessage().contains("sent a key to partition 5, outside 0 … 4 of the stage's 5"), e.getMessage());
    }
  }

  @Test
  void theStagesKeyOrderHoldsAcrossSpillsAndTheReducersMerge() throws IOException {
    KeyOrder descending = new KeyOrder.Descending();
    ShuffleFunctions functions = new ShuffleFunctions(new HashPartitioner(), descending, null);
    Path dir = Files.createDirectories(tmp.resolve("o"));
    // Three maps, each spilling many times under a 4 KiB budget.
    List<byte[][]> all = new ArrayList<>();
    for (int m = 0; m < 3; m++) {
      List<byte[][]> recs = records(10 + m, 1500);
      all.addAll(recs);
      write(dir, m, 4096, recs, false, functions);
    }
    int total = 0;
    for (int p = 0; p < PARTITIONS; p++) {
      List<BlockSource> blocks = new ArrayList<>();
      for (int m = 0; m < 3; m++) {
        List<byte[][]> map = read(dir, m, p);
        assertInOrder(map, descending);
        blocks.add(block(map));
      }
      List<byte[][]> merged = new ArrayList<>();
      try (SortedMerge merge = SortedMerge.of(blocks, descending)) {
        while (merge.next()) {
          merged.add(new byte[][] {merge.key(), merge.value()});
        }
      }
      assertInOrder(merged, descending);
      total += merged.size();
    }
    assertEquals(all.size(), total);
  }

  private static void assertInOrder(List<byte[][]> recs, KeyOrder order) {
    for (int i = 1; i < recs.size(); i++) {
      assertTrue(order.compare(recs.get(i - 1)[0], recs.get(i)[0]) <= 0, "record " + i + " out of the key order");
    }
  }

  private static BlockSource block(List<byte[][]> recs) throws IOException {
    java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
    for (byte[][] r : recs) {
      Records.write(b, r[0], r[1]);
    }
    return new BlockSource.InMemory(b.toByteArray());
  }

  /** A sum of longs. */
  private static Combiner sum() {
    return new ReducingCombiner<Long>(Serdes.LONG) {
      @Override
      protected Long reduce(Long a, Long b) {
        return a + b;
      }
    };
  }

  /** 20,000 counts over 300 string keys. */
  private static List<byte[][]> counts() {
    Random r = new Random(5);
    List<byte[][]> out = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      out.add(new byte[][] {Serdes.STRING.encode("key" + r.nextInt(300)), Serdes.LONG.encode((long) r.nextInt(1000))});
    }
    return out;
  }

  /** Per partition, each key's sum over what the map wrote; and how many records it wrote. */
  private static Map<String, Long> sums(Path dir, int[] records) throws IOException {
    Map<String, Long> sums = new TreeMap<>();
    for (int p = 0; p < PARTITIONS; p++) {
      for (byte[][] r : read(dir, 0, p)) {
        sums.merge(p + "/" + Serdes.STRING.decode(r[0]), Serdes.LONG.decode(r[1]), Long::sum);
        records[0]++;
      }
    }
    return sums;
  }

  @Test
  void aCombinerChangesNoSumAndLeavesOneRecordPerKeyWithOrWithoutSpills() throws IOException {
    List<byte[][]> recs = counts();
    ShuffleFunctions summing = new ShuffleFunctions(new HashPartitioner(), new KeyOrder.Ascending(), sum());
    Path plain = Files.createDirectories(tmp.resolve("plain"));
    Path inMemory = Files.createDirectories(tmp.resolve("combined"));
    Path spilled = Files.createDirectories(tmp.resolve("combined-spills"));
    write(plain, 0, 1L << 30, recs, false);
    write(inMemory, 0, 1L << 30, recs, false, summing);
    write(spilled, 0, 8192, recs, false, summing);
    int[] plainRecords = {0};
    int[] inMemoryRecords = {0};
    int[] spilledRecords = {0};
    Map<String, Long> expected = sums(plain, plainRecords);
    assertEquals(expected, sums(inMemory, inMemoryRecords));
    assertEquals(expected, sums(spilled, spilledRecords));
    assertEquals(recs.size(), plainRecords[0]);
    assertEquals(expected.size(), inMemoryRecords[0], "one record per key");
    assertEquals(expected.size(), spilledRecords[0], "one record per key, the spills' merged too");
  }

  /** A {@link #sum()} that remembers the most values it was given at once. */
  private static final class WatchedSum implements Combiner {
    int most;

    @Override
    public void combine(byte[] key, Iterable<byte[]> values, Consumer<byte[]> out) {
      List<byte[]> all = new ArrayList<>();
      values.forEach(all::add);
      most = Math.max(most, all.size());
      sum().combine(key, all, out);
    }
  }

  @Test
  void eachSpillIsCombinedBeforeTheSpillsAreMerged() throws IOException {
    Random r = new Random(6);
    List<byte[][]> recs = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      recs.add(new byte[][] {Serdes.INT.encode(r.nextInt(10)), Serdes.LONG.encode(1L)});
    }
    WatchedSum sum = new WatchedSum();
    Path dir = Files.createDirectories(tmp.resolve("w"));
    write(dir, 0, 8192, recs, false, new ShuffleFunctions(new HashPartitioner(), new KeyOrder.Ascending(), sum));
    // About 2,000 records a key, spilled about 100 records at a time: combined at each spill, the
    // merge gets one value a key from each of some 200 spills, not the 2,000.
    assertTrue(sum.most < 500, "the most values combined at once: " + sum.most);
    long total = 0;
    for (int p = 0; p < PARTITIONS; p++) {
      for (byte[][] rec : read(dir, 0, p)) {
        total += Serdes.LONG.decode(rec[1]);
      }
    }
    assertEquals(recs.size(), total);
  }

  @Test
  void hostileBlockBytesAreErrorsNotAllocations() {
    Random r = new Random(9);
    for (int i = 0; i < 2000; i++) {
      byte[] junk = new byte[r.nextInt(40)];
      r.nextBytes(junk);
      try (SortedMerge m = SortedMerge.of(List.of(new BlockSource.InMemory(junk)))) {
        while (m.next()) {
          assertTrue(m.key().length + m.value().length <= junk.length);
        }
      } catch (IOException expected) {
        // a malformed block is reported, as it should be
      }
    }
    byte[] huge = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07, 0};
    assertThrows(IOException.class, () -> {
      try (SortedMerge m = SortedMerge.of(List.of(new BlockSource.InMemory(huge)))) {
        m.next();
      }
    });
  }
}
