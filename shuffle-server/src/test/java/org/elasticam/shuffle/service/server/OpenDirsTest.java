package org.elasticam.shuffle.service.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import org.elasticam.shuffle.service.apps.ConfinementException;
import org.elasticam.shuffle.service.apps.DirConfinement;
import org.elasticam.shuffle.service.server.OpenDirs.Found;
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

  private static long now() {
    return System.currentTimeMillis();
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
    assertEquals(8, one.visit(now()).plainFile("map-1.index").attrs().size());
    assertSame(one, confined(dirs, tmp, dir), "the next fetch uses the same open dir");
    assertThrows(NoSuchFileException.class, () -> one.visit(now()).plainFile("map-2.index"));
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
    assertEquals(3, before.visit(now()).plainFile("map-1.data").attrs().size());

    Files.move(dir, tmp.resolve("s0.removed"));
    Files.createDirectories(dir);
    write(dir.resolve("map-1.data"), "newer");
    OpenDir after = confined(dirs, tmp, dir);
    assertEquals(5, after.visit(now()).plainFile("map-1.data").attrs().size(), "read from the dir now at the path");
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
    ConfinementException link = assertThrows(ConfinementException.class, () -> d.visit(now()).plainFile("map-1.data"));
    assertTrue(link.getMessage().contains("symbolic link"), link.getMessage());
    assertThrows(ConfinementException.class, () -> d.visit(now()).plainFile("map-2.data"), "a dir is not a plain file");
    assertThrows(ConfinementException.class, () -> d.visit(now()).plainFile(".."));
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
    ConfinementException link = assertThrows(ConfinementException.class, () -> r.visit(now()).plainDir("s0"));
    assertTrue(link.getMessage().contains("symbolic link"), link.getMessage());
    assertTrue(r.visit(now()).plainDir("s1").attrs().isDirectory());
    write(root.resolve("map-1.data"), "x");
    assertThrows(ConfinementException.class, () -> r.visit(now()).plainDir("map-1.data"), "a file is not a dir");
    assertThrows(ConfinementException.class, () -> r.visit(now()).plainDir(".."));
    dirs.close();
  }

  @Test
  void noneKeptWhenNoFilesAre() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("s0"));
    write(dir.resolve("map-1.data"), "abc");
    OpenDirs dirs = new OpenDirs(0);
    OpenDir d = confined(dirs, tmp, dir);
    assertEquals(3, d.visit(now()).plainFile("map-1.data").attrs().size(), "looked up by path");
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
    assertEquals(1, first.visit(now()).plainFile("map-1.index").attrs().size(), "a fetch still holding an evicted dir looks up by path");

    dirs.closeUnder(APP, List.of(b));
    assertEquals(1, dirs.size(), "a removed shuffle's dir is closed");
    dirs.closeApplication("application_1_0002");
    assertEquals(1, dirs.size(), "another application's stop closes none of these");
    dirs.closeApplication(APP);
    assertEquals(0, dirs.size());
  }

  /** Sets {@code dir}'s modification time {@code ago} before now, as a dir that has not changed since. */
  private static FileTime settle(Path dir, Duration ago) throws IOException {
    FileTime t = FileTime.fromMillis(System.currentTimeMillis() - ago.toMillis());
    Files.setLastModifiedTime(dir, t);
    return t;
  }

  private static Object key(Path p) throws IOException {
    return attrs(p).fileKey();
  }

  /**
   * A dir unchanged for longer than {@link OpenDirs#SETTLED_MILLIS} answers a name found in it
   * before without looking it up: shown by changing the dir behind its back (the file removed,
   * the dir's time set back to what it was), which a lookup would see.
   */
  @Test
  void aSettledDirAnswersANameFoundBeforeWithoutALookup() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("s0"));
    Path file = dir.resolve("map-1.data");
    write(file, "abc");
    Object fileKey = key(file);
    FileTime settled = settle(dir, Duration.ofSeconds(10));
    OpenDirs dirs = new OpenDirs(8);
    OpenDir d = confined(dirs, tmp, dir);
    Found first = d.visit(now()).plainFile("map-1.data");
    assertFalse(first.remembered(), "the first fetch looks it up");
    Found second = d.visit(now()).plainFile("map-1.data");
    assertTrue(second.remembered(), "the next fetch finds it as before");
    assertEquals(fileKey, second.attrs().fileKey());
    assertEquals(1, dirs.remembered());

    Files.delete(file);
    Files.setLastModifiedTime(dir, settled);
    assertTrue(d.visit(now()).plainFile("map-1.data").remembered(), "not looked up: the dir's time says unchanged");
    assertThrows(NoSuchFileException.class, () -> d.visit(now()).plainFileNow("map-1.data"),
        "a file about to be opened is looked up now");
    dirs.close();
    assertEquals(0, dirs.remembered(), "forgotten with their dir");
  }

  /** A file replaced by a rename moves its dir's time on: the next fetch finds the new file. */
  @Test
  void aChangedDirIsLookedUpAfresh() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("s0"));
    Path file = dir.resolve("map-1.data");
    write(file, "old");
    settle(dir, Duration.ofSeconds(10));
    OpenDirs dirs = new OpenDirs(8);
    OpenDir d = confined(dirs, tmp, dir);
    d.visit(now()).plainFile("map-1.data");
    assertTrue(d.visit(now()).plainFile("map-1.data").remembered());

    Path next = dir.resolve("map-1.data.tmp");
    write(next, "newer");
    Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    Object newKey = key(file);
    Found changed = d.visit(now()).plainFile("map-1.data");
    assertFalse(changed.remembered(), "changed just now: looked up");
    assertEquals(newKey, changed.attrs().fileKey());
    assertEquals(5, changed.attrs().size());

    // Settled again, at another time than before: what was found under the old time is forgotten.
    settle(dir, Duration.ofSeconds(5));
    Found again = d.visit(now()).plainFile("map-1.data");
    assertFalse(again.remembered(), "the dir's time moved: found again, not remembered from before");
    assertEquals(newKey, again.attrs().fileKey());
    assertTrue(d.visit(now()).plainFile("map-1.data").remembered());
    dirs.close();
  }

  /**
   * A dir changed less than {@link OpenDirs#SETTLED_MILLIS} ago is looked up at every fetch: a
   * second change within the same tick of the file system's clock would not move its time.
   */
  @Test
  void aDirChangedLatelyIsLookedUpEveryTime() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("s0"));
    write(dir.resolve("map-1.data"), "abc");
    OpenDirs dirs = new OpenDirs(8);
    OpenDir d = confined(dirs, tmp, dir);
    long changed = Files.getLastModifiedTime(dir).toMillis();
    for (int i = 0; i < 3; i++) {
      assertFalse(d.visit(changed + OpenDirs.SETTLED_MILLIS - 1).plainFile("map-1.data").remembered());
    }
    assertEquals(0, dirs.remembered());
    d.visit(changed + OpenDirs.SETTLED_MILLIS).plainFile("map-1.data");
    assertTrue(d.visit(changed + OpenDirs.SETTLED_MILLIS).plainFile("map-1.data").remembered(),
        "remembered once its time is that far in the past");
    dirs.close();
  }

  @Test
  void rememberedNamesAreBoundedAndForgottenWithTheirDir() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("s0"));
    int names = OpenDirs.REMEMBERED_PER_DIR + 4;
    for (int m = 0; m < names; m++) {
      write(dir.resolve("map-" + m + ".data"), "x");
    }
    settle(dir, Duration.ofSeconds(10));
    OpenDirs dirs = new OpenDirs(1);
    OpenDir d = confined(dirs, tmp, dir);
    for (int m = 0; m < names; m++) {
      d.visit(now()).plainFile("map-" + m + ".data");
    }
    assertEquals(OpenDirs.REMEMBERED_PER_DIR, dirs.remembered(), "past the bound, names are looked up each time");
    assertFalse(d.visit(now()).plainFile("map-" + (names - 1) + ".data").remembered());
    assertTrue(d.visit(now()).plainFile("map-0.data").remembered());
    confined(dirs, tmp, Files.createDirectories(tmp.resolve("s1")));
    assertEquals(0, dirs.remembered(), "the evicted dir's names are forgotten with it");
    assertFalse(d.visit(now()).plainFile("map-0.data").remembered(), "an evicted dir looks names up by path");
    dirs.close();
  }
}
