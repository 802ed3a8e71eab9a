package org.elasticam.shuffle.service.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import org.elasticam.shuffle.layout.CorruptIndexException;
import org.elasticam.shuffle.layout.IndexEntry;
import org.elasticam.shuffle.layout.IndexFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexCacheTest {

  private static final String USER = "alice";

  @TempDir
  Path tmp;

  private static BasicFileAttributes attrs(Path p) throws Exception {
    return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
  }

  private Path index(String name, long offset, int partitions) throws Exception {
    List<IndexEntry> entries = new java.util.ArrayList<>();
    for (int r = 0; r < partitions; r++) {
      entries.add(new IndexEntry(offset + 10L * r, 10, r));
    }
    return Files.write(tmp.resolve(name), IndexFile.encode(entries));
  }

  @Test
  void servesCachedEntriesUntilTheFileIsReplaced() throws Exception {
    IndexCache cache = new IndexCache(1 << 20, OwnedFileOpener.unchecked());
    Path p = index("map-0.index", 0, 4);
    assertEquals(List.of(new IndexEntry(10, 10, 1), new IndexEntry(20, 10, 2)),
        cache.entries(p, attrs(p), USER, 1, 2));
    long cached = cache.cachedBytes();
    assertEquals(IndexFile.HEADER_SIZE + 4 * IndexFile.ENTRY_SIZE, cached);
    assertEquals(List.of(new IndexEntry(30, 10, 3)), cache.entries(p, attrs(p), USER, 3, 3));

    // A re-run's output replaces the file by rename, as MapOutputWriter commits it: a new inode.
    Path rerun = index("map-0.index.tmp", 1000, 4);
    Files.move(rerun, p, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    assertEquals(List.of(new IndexEntry(1010, 10, 1)), cache.entries(p, attrs(p), USER, 1, 1));
    assertEquals(cached, cache.cachedBytes(), "the old copy was replaced, not added to");
  }

  @Test
  void cachedCopiesAreCheckedOnEveryUse() throws Exception {
    IndexCache cache = new IndexCache(1 << 20, OwnedFileOpener.unchecked());
    Path p = index("map-0.index", 0, 2);
    BasicFileAttributes a = attrs(p);
    cache.entries(p, a, USER, 0, 1);
    assertThrows(IndexOutOfBoundsException.class, () -> cache.entries(p, a, USER, 1, 2));
    Path bad = index("map-1.index", 0, 2);
    byte[] b = Files.readAllBytes(bad);
    b[IndexFile.HEADER_SIZE + 3] ^= 1;
    Files.write(bad, b);
    assertThrows(CorruptIndexException.class, () -> cache.entries(bad, attrs(bad), USER, 0, 0));
  }

  @Test
  void staysWithinItsBound() throws Exception {
    int one = IndexFile.HEADER_SIZE + 4 * IndexFile.ENTRY_SIZE;
    IndexCache cache = new IndexCache(3L * one, OwnedFileOpener.unchecked());
    for (int m = 0; m < 10; m++) {
      Path p = index("map-" + m + ".index", m, 4);
      assertEquals(m + 10, cache.entries(p, attrs(p), USER, 1, 1).get(0).offset());
      assertTrue(cache.cachedBytes() <= 3L * one, "cached " + cache.cachedBytes());
    }
    IndexCache off = new IndexCache(0, OwnedFileOpener.unchecked());
    Path p = index("map-x.index", 0, 4);
    assertEquals(10, off.entries(p, attrs(p), USER, 1, 1).get(0).offset());
    assertEquals(0, off.cachedBytes());
  }
}
