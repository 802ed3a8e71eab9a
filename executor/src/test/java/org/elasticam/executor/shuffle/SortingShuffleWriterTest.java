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
import java.util.Random;
import java.util.stream.Stream;
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
    try (SortingShuffleWriter w = new SortingShuffleWriter(List.of(dirs), 0, mapId, PARTITIONS, memory,
        tmp.resolve("spill"))) {
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
