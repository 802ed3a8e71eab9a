package org.elasticam.shuffle.service.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import org.elasticam.shuffle.service.apps.ConfinementException;
import org.elasticam.shuffle.service.apps.DirConfinement;
import org.elasticam.shuffle.service.server.OpenDirs.OpenDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shuffle dirs kept open between fetches: files looked up in the dir the fetch's confinement check
 * found, a dir made anew at the same path opened anew, links refused as by path, bounded, closed
 * with their application or shuffle.
 */
class OpenDirsTest {

  private static final String APP = "application_1_0001";

  @TempDir
  Path tmp;

  private static BasicFileAttributes attrs(Path p) throws IOException {
    return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
  }

  private static void write(Path p, String content) throws IOException {
    Files.write(p, content.getBytes(StandardCharsets.US_ASCII));
  }

  /** The dir as a fetch finds it (its attributes read without following a link), taken from {@code dirs}. */
  private static OpenDir confined(OpenDirs dirs, Path root, Path dir) throws Exception {
    return dirs.get(APP, dir, DirConfinement.requirePlainDir(dir.getFileName().toString(), attrs(dir)));
  }

  @Test
  void aDirIsKeptOpenAndItsFilesLookedUpInIt() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("s0"));
    write(dir.resolve("map-1.index"), "12345678");
    OpenDirs dirs = new OpenDirs(8);
    OpenDir one = confined(dirs, tmp, dir);
    assertTrue(one.isOpen(), "Linux opens dirs relative to a descriptor");
    assertEquals(8, one.plainFile("map-1.index").size());
    assertSame(one, confined(dirs, tmp, dir), "the next fetch uses the same open dir");
    assertThrows(NoSuchFileException.class, () -> one.plainFile("map-2.index"));
    dirs.close();
  }

  /**
   * An executor's dirs removed and made again (a new attempt writing the same shuffle): the old
   * descriptor still names the removed dir, whose files are gone; the new dir's files must be found.
   */
  @Test
  void aDirMadeAnewAtTheSamePathIsOpenedAnew() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("s0"));
    write(dir.resolve("map-1.data"), "old");
    OpenDirs dirs = new OpenDirs(8);
    OpenDir before = confined(dirs, tmp, dir);
    assertEquals(3, before.plainFile("map-1.data").size());

    Files.move(dir, tmp.resolve("s0.removed"));
    Files.createDirectories(dir);
    write(dir.resolve("map-1.data"), "newer");
    OpenDir after = confined(dirs, tmp, dir);
    assertEquals(5, after.plainFile("map-1.data").size(), "read from the dir now at the path");
    assertEquals(1, dirs.size(), "the old descriptor is closed, not kept beside the new one");
    dirs.close();
  }

  @Test
  void aLinkInAnOpenDirIsRefusedAsByPath() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("s0"));
    Path outside = Files.createDirectories(tmp.resolve("elsewhere")).resolve("secret");
    write(outside, "not yours");
    Files.createSymbolicLink(dir.resolve("map-1.data"), outside);
    Files.createDirectories(dir.resolve("map-2.data"));
    OpenDirs dirs = new OpenDirs(8);
    OpenDir d = confined(dirs, tmp, dir);
    assertTrue(d.isOpen());
    ConfinementException link = assertThrows(ConfinementException.class, () -> d.plainFile("map-1.data"));
    assertTrue(link.getMessage().contains("symbolic link"), link.getMessage());
    assertThrows(ConfinementException.class, () -> d.plainFile("map-2.data"), "a dir is not a plain file");
    assertThrows(ConfinementException.class, () -> d.plainFile(".."));
    dirs.close();
  }

  @Test
  void aLinkInPlaceOfADirOnTheWayIsRefused() throws Exception {
    Path root = Files.createDirectories(tmp.resolve("root"));
    Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere").resolve("00"));
    Files.createSymbolicLink(root.resolve("s0"), elsewhere.getParent());
    Files.createDirectories(root.resolve("s1"));
    OpenDirs dirs = new OpenDirs(8);
    OpenDir r = confined(dirs, tmp, root);
    ConfinementException link = assertThrows(ConfinementException.class, () -> r.plainDir("s0"));
    assertTrue(link.getMessage().contains("symbolic link"), link.getMessage());
    assertTrue(r.plainDir("s1").isDirectory());
    write(root.resolve("map-1.data"), "x");
    assertThrows(ConfinementException.class, () -> r.plainDir("map-1.data"), "a file is not a dir");
    assertThrows(ConfinementException.class, () -> r.plainDir(".."));
    dirs.close();
  }

  @Test
  void noneKeptWhenNoFilesAre() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("s0"));
    write(dir.resolve("map-1.data"), "abc");
    OpenDirs dirs = new OpenDirs(0);
    OpenDir d = confined(dirs, tmp, dir);
    assertEquals(3, d.plainFile("map-1.data").size(), "looked up by path");
    assertEquals(0, dirs.size());
  }

  @Test
  void boundedAndClosedWithTheirApplicationOrShuffle() throws Exception {
    OpenDirs dirs = new OpenDirs(2);
    Path a = Files.createDirectories(tmp.resolve("a").resolve("s0"));
    Path b = Files.createDirectories(tmp.resolve("a").resolve("s1"));
    Path c = Files.createDirectories(tmp.resolve("a").resolve("s2"));
    OpenDir first = confined(dirs, tmp, a);
    confined(dirs, tmp, b);
    confined(dirs, tmp, c);
    assertEquals(2, dirs.size(), "the least recently used is closed past the bound");
    write(a.resolve("map-1.index"), "x");
    assertEquals(1, first.plainFile("map-1.index").size(), "a fetch still holding an evicted dir looks up by path");

    dirs.closeUnder(APP, List.of(b));
    assertEquals(1, dirs.size(), "a removed shuffle's dir is closed");
    dirs.closeApplication("application_1_0002");
    assertEquals(1, dirs.size(), "another application's stop closes none of these");
    dirs.closeApplication(APP);
    assertEquals(0, dirs.size());
  }
}
