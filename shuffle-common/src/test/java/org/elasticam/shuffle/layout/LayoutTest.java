package org.elasticam.shuffle.layout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LayoutTest {

  @TempDir
  Path tmp;

  @Test
  void pathsAreDeterministicSpreadOverDirsAndFixedAcrossVersions() {
    List<Path> dirs = List.of(Path.of("/d0"), Path.of("/d1"), Path.of("/d2"));
    // Pinned: executors and services of different versions must agree on where a map lives.
    assertEquals(ShuffleLayout.dataFile(dirs, 0, 0), ShuffleLayout.dataFile(dirs, 0, 0));
    assertEquals("map-5.index", ShuffleLayout.indexFile(dirs, 2, 5).getFileName().toString());
    assertTrue(ShuffleLayout.dataFile(dirs, 2, 5).toString().contains("/elasticam-shuffle/s2/"));
    Set<Path> roots = new HashSet<>();
    for (int m = 0; m < 60; m++) {
      roots.add(ShuffleLayout.dataFile(dirs, 1, m).getName(0).getFileName());
    }
    assertEquals(3, roots.size(), "maps spread over every dir");
  }

  @Test
  void aWrittenMapReadsBackEntryByEntryWithChecksums() throws IOException {
    List<Path> dirs = List.of(tmp.resolve("a"), tmp.resolve("b"));
    int[] sizes = {0, 5, 70_000, 1};
    for (int m = 0; m < 3; m++) {
      List<byte[]> blocks = new ArrayList<>();
      for (int r = 0; r < sizes.length; r++) {
        blocks.add(block(m, r, sizes[r]));
      }
      MapOutputWriter.writeAll(dirs, 4, m, blocks);
    }
    try (FileChannel idx = FileChannel.open(ShuffleLayout.indexFile(dirs, 4, 2))) {
      assertEquals(4, IndexFile.readHeader(idx));
      List<IndexEntry> e = IndexFile.read(idx, 1, 3);
      assertEquals(3, e.size());
      byte[] data = Files.readAllBytes(ShuffleLayout.dataFile(dirs, 4, 2));
      for (int i = 0; i < 3; i++) {
        int r = i + 1;
        byte[] block = java.util.Arrays.copyOfRange(data, (int) e.get(i).offset(), (int) e.get(i).end());
        assertArrayEquals(block(2, r, sizes[r]), block);
        CRC32C c = new CRC32C();
        c.update(block);
        assertEquals((int) c.getValue(), e.get(i).crc32c());
      }
      assertThrows(IndexOutOfBoundsException.class, () -> IndexFile.read(idx, 3, 4));
    }
    try (var files = Files.walk(tmp)) {
      assertFalse(files.anyMatch(p -> p.toString().endsWith(".tmp")), "no temporary file left");
    }
  }

  @Test
  void aDamagedIndexIsReportedNotMisread() throws IOException {
    List<Path> dirs = List.of(tmp);
    MapOutputWriter.writeAll(dirs, 0, 0, List.of(block(0, 0, 10), block(0, 1, 10), block(0, 2, 10)));
    Path index = ShuffleLayout.indexFile(dirs, 0, 0);
    byte[] good = Files.readAllBytes(index);

    byte[] flipped = good.clone();
    flipped[IndexFile.HEADER_SIZE + IndexFile.ENTRY_SIZE + 3] ^= 1;
    Files.write(index, flipped);
    try (FileChannel ch = FileChannel.open(index)) {
      IndexFile.read(ch, 0, 0);
      assertThrows(CorruptIndexException.class, () -> IndexFile.read(ch, 1, 1));
    }
    Files.write(index, java.util.Arrays.copyOf(good, good.length - 1));
    try (FileChannel ch = FileChannel.open(index)) {
      assertThrows(CorruptIndexException.class, () -> IndexFile.read(ch, 0, 0));
    }
    Files.write(index, new byte[] {1, 2, 3});
    try (FileChannel ch = FileChannel.open(index)) {
      assertThrows(CorruptIndexException.class, () -> IndexFile.readHeader(ch));
    }
  }

  @Test
  void theFirstCommittedAttemptWins() throws IOException {
    List<Path> dirs = List.of(tmp);
    MapOutputWriter.writeAll(dirs, 0, 0, List.of(new byte[] {1}));
    MapOutputWriter.writeAll(dirs, 0, 0, List.of(new byte[] {2, 2}));
    assertArrayEquals(new byte[] {1}, Files.readAllBytes(ShuffleLayout.dataFile(dirs, 0, 0)));
    try (MapOutputWriter w = MapOutputWriter.create(dirs, 0, 1, 2)) {
      w.write(1, new byte[] {9}, 0, 1);
      assertThrows(IllegalArgumentException.class, () -> w.write(0, new byte[] {9}, 0, 1));
    }
    assertFalse(Files.exists(ShuffleLayout.indexFile(dirs, 0, 1)), "closed without commit: nothing");
  }

  /** Content that differs per map, reduce and byte, so a block read from the wrong place shows. */
  private static byte[] block(int map, int reduce, int size) {
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) {
      b[i] = (byte) (map * 97 + reduce * 31 + i * 7 + (i >>> 8));
    }
    return b;
  }
}
