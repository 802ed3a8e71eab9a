package org.elasticam.shuffle.service.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.atomic.AtomicReference;
import org.elasticam.shuffle.service.server.KeptFiles.KeptFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Data files kept open between fetches: reused while unchanged, closed when replaced, evicted or their app stops. */
class KeptFilesTest {

  private static final String APP = "application_1_0001";
  private static final String USER = "alice";

  @TempDir
  Path tmp;

  private static BasicFileAttributes attrs(Path p) throws IOException {
    return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
  }

  private Path file(String name, String content) throws IOException {
    return Files.write(tmp.resolve(name), content.getBytes(StandardCharsets.US_ASCII));
  }

  private static String read(KeptFile k) throws IOException {
    ByteBuffer b = ByteBuffer.allocate((int) k.channel().size());
    k.channel().read(b, 0);
    return new String(b.array(), StandardCharsets.US_ASCII);
  }

  @Test
  void anUnchangedFileIsOpenedOnceAndSharedUntilEveryUserLetsItGo() throws Exception {
    Path p = file("a.data", "first");
    KeptFiles kept = new KeptFiles(8, OwnedFileOpener.unchecked());
    KeptFile one = kept.acquire(p, attrs(p), APP, USER);
    KeptFile two = kept.acquire(p, attrs(p), APP, USER);
    assertSame(one, two, "one descriptor for both fetches");
    one.release();
    two.release();
    assertTrue(one.channel().isOpen(), "kept open between fetches");
    assertEquals(1, kept.size());
    kept.close();
    assertFalse(one.channel().isOpen());
  }

  @Test
  void aReplacedFileIsClosedAndTheNewOneReadWhileAResponseStillReadsTheOld() throws Exception {
    Path p = file("a.data", "first");
    KeptFiles kept = new KeptFiles(8, OwnedFileOpener.unchecked());
    KeptFile old = kept.acquire(p, attrs(p), APP, USER);
    Files.move(file("b.tmp", "second"), p, StandardCopyOption.REPLACE_EXISTING);
    KeptFile fresh = kept.acquire(p, attrs(p), APP, USER);
    assertNotSame(old, fresh);
    assertEquals("second", read(fresh));
    assertEquals("first", read(old), "a response under way reads what it was resolved against");
    assertTrue(old.channel().isOpen());
    old.release();
    assertFalse(old.channel().isOpen(), "the replaced file closes with its last user");
    fresh.release();
    assertTrue(fresh.channel().isOpen());
  }

  @Test
  void theLeastRecentlyUsedFileIsClosedPastTheBoundAndNoneIsKeptWithZero() throws Exception {
    KeptFiles kept = new KeptFiles(2, OwnedFileOpener.unchecked());
    Path a = file("a", "a");
    Path b = file("b", "b");
    Path c = file("c", "c");
    KeptFile ka = kept.acquire(a, attrs(a), APP, USER);
    ka.release();
    kept.acquire(b, attrs(b), APP, USER).release();
    kept.acquire(a, attrs(a), APP, USER).release();
    KeptFile kb = kept.acquire(b, attrs(b), APP, USER);
    kb.release();
    kept.acquire(c, attrs(c), APP, USER).release();
    assertEquals(2, kept.size());
    assertTrue(kb.channel().isOpen(), "b was used after a");
    assertFalse(ka.channel().isOpen(), "a, least recently used, was closed");

    KeptFiles none = new KeptFiles(0, OwnedFileOpener.unchecked());
    KeptFile once = none.acquire(a, attrs(a), APP, USER);
    once.release();
    assertFalse(once.channel().isOpen());
    assertEquals(0, none.size());
  }

  @Test
  void anApplicationsFilesCloseWhenItStopsOnceTheirResponsesEnd() throws Exception {
    KeptFiles kept = new KeptFiles(8, OwnedFileOpener.unchecked());
    Path mine = file("mine", "m");
    Path other = file("other", "o");
    KeptFile inUse = kept.acquire(mine, attrs(mine), APP, USER);
    KeptFile others = kept.acquire(other, attrs(other), "application_1_0002", USER);
    others.release();
    kept.closeApplication(APP);
    assertTrue(inUse.channel().isOpen(), "a response under way finishes");
    inUse.release();
    assertFalse(inUse.channel().isOpen());
    assertTrue(others.channel().isOpen(), "another application's files stay");
    assertEquals(1, kept.size());
  }

  @Test
  void theOwnerIsCheckedAgainOnTheKeptDescriptorAtEveryUse() throws Exception {
    Path p = file("a.data", "data");
    AtomicReference<String> owner = new AtomicReference<>(USER);
    OwnedFileOpener opener = new OwnedFileOpener() {
      @Override
      public OpenedFile openChecked(Path file, String user) throws IOException {
        OpenedFile f = new OpenedFile(java.nio.channels.FileChannel.open(file), u -> {
          if (!owner.get().equals(u)) {
            throw new ForeignOwnerException(file, owner.get(), u);
          }
        });
        f.checkOwner(user);
        return f;
      }

      @Override
      public boolean checksOwner() {
        return true;
      }
    };
    KeptFiles kept = new KeptFiles(8, opener);
    kept.acquire(p, attrs(p), APP, USER).release();
    owner.set("mallory"); // a chown of the same inode after the open
    assertThrows(ForeignOwnerException.class, () -> kept.acquire(p, attrs(p), APP, USER));
    owner.set(USER);
    KeptFile again = kept.acquire(p, attrs(p), APP, USER);
    assertArrayEquals("data".getBytes(StandardCharsets.US_ASCII), read(again).getBytes(StandardCharsets.US_ASCII));
    again.release();
  }
}
