package org.elasticam.shuffle.service.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import org.elasticam.shuffle.layout.MapOutputWriter;
import org.elasticam.shuffle.layout.ShuffleLayout;
import org.elasticam.shuffle.protocol.FetchRequest;
import org.elasticam.shuffle.protocol.MapIdSet;
import org.elasticam.shuffle.protocol.ReduceRange;
import org.elasticam.shuffle.service.server.BlockResolver.AppFiles;
import org.elasticam.shuffle.service.server.BlockResolver.BlockSlice;
import org.elasticam.shuffle.service.server.BlockResolver.ResolvedFetch;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fetch resolved in dirs that have settled: maps answered from what was found before while
 * their dirs are unchanged, a map output replaced by a re-run found at once, and a map's index
 * and data never taken one from before and one from now.
 */
class BlockResolverTest {

  private static final String APP = "application_1_0001";
  private static final String USER = "alice";

  @TempDir
  Path tmp;

  private List<Path> dirs;
  private KeptFiles kept;
  private OpenDirs openDirs;
  private AppFiles files;

  @BeforeEach
  void setUp() throws IOException {
    dirs = List.of(Files.createDirectories(tmp.resolve("appcache").resolve(APP)).toRealPath());
    kept = new KeptFiles(8, OwnedFileOpener.unchecked());
    openDirs = new OpenDirs(8);
    files = new AppFiles(APP, USER, dirs, new IndexCache(1 << 20, OwnedFileOpener.unchecked()), kept, openDirs);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /** Map 0's output committed by a new attempt that replaces the old one (a re-run). */
  private void rewriteMap0(String... blocks) throws IOException {
    try (MapOutputWriter w = MapOutputWriter.create(dirs, 0, 0, blocks.length)) {
      for (int r = 0; r < blocks.length; r++) {
        w.write(r, bytes(blocks[r]), 0, blocks[r].length());
      }
      w.commit(true);
    }
  }

  /** Every dir from the registered one down to map 0's, as unchanged for {@code seconds}. */
  private FileTime settle(int seconds) throws IOException {
    FileTime t = FileTime.fromMillis(System.currentTimeMillis() - seconds * 1000L);
    for (Path d = ShuffleLayout.dataFile(dirs, 0, 0).getParent(); d.startsWith(dirs.get(0)); d = d.getParent()) {
      Files.setLastModifiedTime(d, t);
    }
    return t;
  }

  /** What a fetch of reduce {@code r} of map 0 serves: the block's bytes as its response would read them. */
  private byte[] fetch(int r) throws Exception {
    ResolvedFetch f = BlockResolver.resolve(new FetchRequest(APP, "1", 0, ReduceRange.of(r), MapIdSet.of(0)), files,
        System.currentTimeMillis());
    try {
      BlockSlice s = f.blocks().get(0);
      ByteBuffer b = ByteBuffer.allocate((int) s.header().length());
      s.file().channel().read(b, s.offset());
      return b.array();
    } finally {
      f.release();
    }
  }

  @Test
  void aSettledMapIsServedFromWhatWasFoundBeforeAndAReRunIsFoundAtOnce() throws Exception {
    MapOutputWriter.writeAll(dirs, 0, 0, List.of(bytes("first"), bytes("second")));
    settle(10);
    assertArrayEquals(bytes("second"), fetch(1));
    assertArrayEquals(bytes("first"), fetch(0));
    // The three dirs below the registered one, each in the one above, and the map's index and data file.
    assertEquals(5, openDirs.remembered(), "names found in settled dirs are remembered");

    rewriteMap0("third-attempt", "x");
    assertArrayEquals(bytes("third-attempt"), fetch(0), "the re-run's commit moved its dir's time on");
    assertArrayEquals(bytes("x"), fetch(1));
  }

  /**
   * A dir's time set back by hand after its files were replaced: the kept file and cached index
   * still serve the old output, both of them; once the data file is no longer kept, both names
   * are looked up now and the new output is served whole — never the old index over the new data.
   */
  @Test
  void aMapsIndexAndDataAreNeverTakenOneFromBeforeAndOneFromNow() throws Exception {
    MapOutputWriter.writeAll(dirs, 0, 0, List.of(bytes("aaaa"), bytes("bbbbbbbb")));
    FileTime settled = settle(10);
    assertArrayEquals(bytes("bbbbbbbb"), fetch(1));
    assertArrayEquals(bytes("bbbbbbbb"), fetch(1));

    rewriteMap0("cccccccccccc", "dd");
    Files.setLastModifiedTime(ShuffleLayout.dataFile(dirs, 0, 0).getParent(), settled);
    assertArrayEquals(bytes("bbbbbbbb"), fetch(1), "both held, their dir's time unchanged: the old output whole");

    kept.closeApplication(APP);
    assertEquals(0, kept.size());
    assertArrayEquals(bytes("dd"), fetch(1), "the data file opened anew: both looked up now");
    assertArrayEquals(bytes("cccccccccccc"), fetch(0));
  }

  /**
   * A dir's name found before only confirms a dir kept open already. Here the map's dir is no
   * longer kept open, and was swapped for a link to another user's output with its parent's time
   * set back by hand: the name is looked up again before anything is opened, and the link refused.
   */
  @Test
  void aDirFoundBeforeIsLookedUpAgainBeforeItIsOpened() throws Exception {
    MapOutputWriter.writeAll(dirs, 0, 0, List.of(bytes("mine")));
    FileTime settled = settle(10);
    assertArrayEquals(bytes("mine"), fetch(0));
    assertArrayEquals(bytes("mine"), fetch(0));

    Path leaf = ShuffleLayout.dataFile(dirs, 0, 0).getParent();
    Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
    MapOutputWriter.writeAll(List.of(elsewhere), 0, 0, List.of(bytes("not yours")));
    Files.move(leaf, tmp.resolve("moved-away"));
    Files.createSymbolicLink(leaf, ShuffleLayout.dataFile(List.of(elsewhere), 0, 0).getParent());
    Files.setLastModifiedTime(leaf.getParent(), settled);
    openDirs.closeUnder(APP, List.of(leaf));
    kept.closeApplication(APP);

    RejectedException refused = assertThrows(RejectedException.class, () -> fetch(0));
    assertEquals(403, refused.rejection().status(), refused.rejection().message());
  }

  @Test
  void aMapWrittenWhileItsDirWasSettledIsFound() throws Exception {
    MapOutputWriter.writeAll(dirs, 0, 0, List.of(bytes("a")));
    settle(10);
    assertArrayEquals(bytes("a"), fetch(0));
    List<byte[]> blocks = new ArrayList<>();
    blocks.add(bytes("other"));
    // Another map in the same shuffle dirs: each new name is looked up, not taken as absent.
    for (int m = 1; m < 40; m++) {
      MapOutputWriter.writeAll(dirs, 0, m, blocks);
    }
    ResolvedFetch f = BlockResolver.resolve(new FetchRequest(APP, "1", 0, ReduceRange.of(0), MapIdSet.range(0, 39)),
        files, System.currentTimeMillis());
    assertEquals(40, f.blocks().size());
    for (int m = 0; m < 40; m++) {
      assertEquals(m == 0 ? 1L : 5L, f.blocks().get(m).header().length(), "map " + m);
    }
    f.release();
  }
}
