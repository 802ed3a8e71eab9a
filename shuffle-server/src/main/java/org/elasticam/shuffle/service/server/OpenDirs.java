package org.elasticam.shuffle.service.server;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.ClosedDirectoryStreamException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.elasticam.shuffle.service.apps.ConfinementException;
import org.elasticam.shuffle.service.apps.DirConfinement;

/**
 * Directories of shuffle files kept open between fetches, so that a fetch looks each map's files
 * up relative to their directory ({@code fstatat} of one name) instead of walking the whole path
 * from the root ({@code lstat}): two such walks per map were a sixth of the service's CPU on 64 KiB
 * blocks (BENCHMARKS.md). An open directory is used only while it is the directory the fetch's own
 * confinement check just found at that path (same device and inode): one removed and made again
 * since is opened anew, never read through the old descriptor, and a file in it is checked as
 * before (a regular file, not a link).
 *
 * <p>A directory that has not changed for {@link #SETTLED_MILLIS} answers the names found in it
 * before without looking them up again: one {@code fstat} of the directory per fetch instead of a
 * lookup per file (a 20-map fetch looks up 40 files in some 20 directories). Map output is
 * committed by renaming it into place and never rewritten where it lies, and every entry made,
 * removed or renamed moves the directory's modification time on, so an unchanged time says each
 * name still names what it did. A remembered name only confirms what is held open already (a kept
 * directory, {@link #getOpen}; a kept data file and a cached index, {@link BlockResolver}):
 * anything to be opened is looked up now. So a directory's time set back by hand can only make a
 * fetch serve what it served before, never a file or directory it did not check.
 *
 * <p>Bounded ({@code elasticam.shuffle.maxOpenFiles}, least recently used closed first; names
 * remembered at most {@link #REMEMBERED_PER_DIR} per directory on average, past which names are
 * looked up each time); an application's directories close when it stops, a shuffle's when it is
 * removed. Where the
 * platform cannot open relative to a directory ({@link SecureDirectoryStream}), files are looked
 * up by path. Thread-safe: the disk threads share it.
 */
final class OpenDirs implements Closeable {

  private static final class Key {
    private final String appId;
    private final Path dir;

    Key(String appId, Path dir) {
      this.appId = appId;
      this.dir = dir;
    }

    @Override
    public boolean equals(Object o) {
      if (!(o instanceof Key)) {
        return false;
      }
      Key k = (Key) o;
      // The same path instance comes back fetch after fetch (remembered by the dir above): equal at once.
      return k.appId.equals(appId) && (k.dir == dir || k.dir.equals(dir));
    }

    @Override
    public int hashCode() {
      return appId.hashCode() * 31 + dir.hashCode();
    }
  }

  /**
   * How long after a directory last changed before what its names were found to be is used again.
   * A file system stamps a change with a coarse clock (a kernel tick on ext4 and XFS, whole
   * seconds on some, two on FAT): a change made in the same tick as a lookup, just after it, would
   * leave the directory's time as it was. Two seconds covers the coarsest.
   */
  static final long SETTLED_MILLIS = 2_000;

  /** Names remembered per directory kept open, on average, at most (each is a few hundred bytes). */
  static final int REMEMBERED_PER_DIR = 16;

  private final int max;
  private final LinkedHashMap<Key, OpenDir> open = new LinkedHashMap<>(16, 0.75f, true);
  private final AtomicInteger remembered = new AtomicInteger();
  private boolean closed;

  OpenDirs(int max) {
    this.max = max;
  }

  /** A directory to look files up in: through its open descriptor, or by path. */
  static final class OpenDir {
    private final Path path;
    private final Object fileKey;
    private final SecureDirectoryStream<Path> stream;
    private final AtomicInteger remembered;
    private final int maxRemembered;
    /** What names were found to be, while the directory's modification time stays {@link #foundUnder}. */
    private final HashMap<String, Found> found = new HashMap<>();
    private FileTime foundUnder;
    private boolean closed;

    private OpenDir(Path path, Object fileKey, SecureDirectoryStream<Path> stream, AtomicInteger remembered,
        int maxRemembered) {
      this.path = path;
      this.fileKey = fileKey;
      this.stream = stream;
      this.remembered = remembered;
      this.maxRemembered = maxRemembered;
    }

    static OpenDir byPath(Path path) {
      return new OpenDir(path, null, null, null, 0);
    }

    /** Whether lookups go through an open descriptor (else by path). */
    boolean isOpen() {
      return stream != null;
    }

    /**
     * This directory as one fetch sees it, {@code nowMillis} (the wall clock) read before: its
     * modification time read once from the open descriptor. When that time is the one under which
     * names were last found here and lies {@link #SETTLED_MILLIS} or more in the past, what they
     * were found to be is used again without a lookup: any entry made, removed or renamed here
     * since would have moved the time on. Else every name is looked up.
     */
    Visit visit(long nowMillis) {
      if (stream == null) {
        return new Visit(this, null);
      }
      FileTime modified;
      try {
        modified = stream.getFileAttributeView(BasicFileAttributeView.class).readAttributes().lastModifiedTime();
      } catch (IOException | ClosedDirectoryStreamException e) {
        return new Visit(this, null);
      }
      if (modified.toMillis() > nowMillis - SETTLED_MILLIS) {
        return new Visit(this, null);
      }
      synchronized (found) {
        if (!modified.equals(foundUnder)) {
          forgetAll();
          foundUnder = modified;
        }
      }
      return new Visit(this, modified);
    }

    private BasicFileAttributes lookUp(String name) throws IOException {
      BasicFileAttributes a = null;
      if (stream != null) {
        try {
          a = stream.getFileAttributeView(Paths.get(name), BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
              .readAttributes();
        } catch (ClosedDirectoryStreamException e) {
          // Closed by an eviction meanwhile: the path was confined by this fetch, so it serves as well.
        }
      }
      if (a == null) {
        a = Files.readAttributes(path.resolve(name), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      }
      return a;
    }

    private Found foundBefore(String name, FileTime under) {
      synchronized (found) {
        return under.equals(foundUnder) ? found.get(name) : null;
      }
    }

    private void remember(String name, Found f, FileTime under) {
      synchronized (found) {
        if (closed || !under.equals(foundUnder) || found.replace(name, f) != null) {
          return;
        }
        if (remembered.incrementAndGet() > maxRemembered) {
          remembered.decrementAndGet();
          return;
        }
        found.put(name, f);
      }
    }

    /** Under {@code found}'s lock. */
    private void forgetAll() {
      remembered.addAndGet(-found.size());
      found.clear();
    }

    private void close() {
      if (stream != null) {
        synchronized (found) {
          closed = true;
          forgetAll();
        }
        try {
          stream.close();
        } catch (IOException e) {
          // A directory descriptor has nothing to flush.
        }
      }
    }
  }

  /**
   * One fetch's view of an {@link OpenDir}: names looked up, or found before under the same
   * modification time. Used by one fetch's thread only.
   */
  static final class Visit {
    private final OpenDir dir;
    private final FileTime settled;
    private Map<String, Visit> children;

    private Visit(OpenDir dir, FileTime settled) {
      this.dir = dir;
      this.settled = settled;
    }

    /**
     * The regular file {@code name} in this directory: its attributes read without following a
     * link, or as found before under the same modification time ({@link Found#remembered}).
     *
     * @throws java.nio.file.NoSuchFileException when there is none
     * @throws ConfinementException when it is a link or not a regular file
     */
    Found plainFile(String name) throws IOException, ConfinementException {
      return plain(name, found(name), false);
    }

    /** The attributes of the regular file {@code name}, always looked up now: for a file about to be opened. */
    BasicFileAttributes plainFileNow(String name) throws IOException, ConfinementException {
      return plain(name, lookedUp(name), false).attrs();
    }

    /**
     * The directory {@code name} in this directory: its attributes read without following a link,
     * or as found before under the same modification time; the directory is opened only as what
     * they say ({@link OpenDirs#get}).
     *
     * @throws java.nio.file.NoSuchFileException when there is none
     * @throws ConfinementException when it is a link or not a directory
     */
    Found plainDir(String name) throws IOException, ConfinementException {
      return plain(name, found(name), true);
    }

    /** As {@link #plainDir}, always looked up now: for a directory about to be opened. */
    Found plainDirNow(String name) throws IOException, ConfinementException {
      return plain(name, lookedUp(name), true);
    }

    /** {@code f} when {@code name} is a plain directory (or file) in this one, not a link; else the refusal. */
    private static Found plain(String name, Found f, boolean directory) throws ConfinementException {
      if (directory) {
        DirConfinement.requirePlainDir(name, f.attrs());
      } else {
        DirConfinement.requirePlainFile(name, f.attrs());
      }
      return f;
    }

    /** The visit of the sub-dir {@code name} this fetch made already, if it did. */
    Visit visitedChild(String name) {
      return children == null ? null : children.get(name);
    }

    void visitedChild(String name, Visit child) {
      if (children == null) {
        children = new HashMap<>();
      }
      children.put(name, child);
    }

    private Found found(String name) throws IOException {
      Found f = settled == null ? null : dir.foundBefore(name, settled);
      return f != null ? f : lookedUp(name);
    }

    private Found lookedUp(String name) throws IOException {
      Found f = new Found(dir.lookUp(name), false, dir.path.resolve(name));
      if (settled != null) {
        // Remembered with its path: later fetches then key the kept-file and index maps with the same instance.
        dir.remember(name, f.asRemembered(), settled);
      }
      return f;
    }
  }

  /**
   * A name's path and attributes, and whether they were found before rather than looked up now.
   * Found before, they say which file the name named when its directory last changed: good for
   * confirming a file already held open is still the one, not for opening the path now.
   */
  static final class Found {
    private final BasicFileAttributes attrs;
    private final boolean remembered;
    private final Path path;

    Found(BasicFileAttributes attrs, boolean remembered, Path path) {
      this.attrs = attrs;
      this.remembered = remembered;
      this.path = path;
    }

    BasicFileAttributes attrs() {
      return attrs;
    }

    boolean remembered() {
      return remembered;
    }

    Path path() {
      return path;
    }

    private Found asRemembered() {
      return new Found(attrs, true, path);
    }
  }

  /**
   * The directory {@code dir} of {@code appId} as the caller's confinement check just found it
   * ({@code attrs}, read without following links): the open one when it is still that directory,
   * else opened now; by path when it cannot be opened as that directory.
   */
  OpenDir get(String appId, Path dir, BasicFileAttributes attrs) {
    Object key = attrs.fileKey();
    if (key == null || max == 0) {
      return OpenDir.byPath(dir);
    }
    OpenDir d = getOpen(appId, dir, attrs);
    if (d != null) {
      return d;
    }
    Key k = new Key(appId, dir);
    OpenDir fresh = openAs(dir, key, remembered, max * REMEMBERED_PER_DIR);
    if (!fresh.isOpen()) {
      return fresh;
    }
    List<OpenDir> dropped = new ArrayList<>();
    synchronized (this) {
      if (closed) {
        dropped.add(fresh);
        fresh = OpenDir.byPath(dir);
      } else {
        OpenDir old = open.put(k, fresh);
        if (old != null) {
          dropped.add(old);
        }
        for (Iterator<OpenDir> it = open.values().iterator(); open.size() > max && it.hasNext(); ) {
          dropped.add(it.next());
          it.remove();
        }
      }
    }
    dropped.forEach(OpenDir::close);
    return fresh;
  }

  /**
   * The directory {@code dir} of {@code appId} when it is open already as the directory {@code
   * attrs} names; else {@code null}, and nothing is opened.
   */
  synchronized OpenDir getOpen(String appId, Path dir, BasicFileAttributes attrs) {
    OpenDir d = attrs.fileKey() == null ? null : open.get(new Key(appId, dir));
    return d != null && d.fileKey.equals(attrs.fileKey()) ? d : null;
  }

  /** {@code dir} opened, when what opens is the directory {@code key} names; else by path. */
  private static OpenDir openAs(Path dir, Object key, AtomicInteger remembered, int maxRemembered) {
    DirectoryStream<Path> ds;
    try {
      ds = Files.newDirectoryStream(dir);
    } catch (IOException | UnsupportedOperationException e) {
      return OpenDir.byPath(dir);
    }
    if (ds instanceof SecureDirectoryStream) {
      SecureDirectoryStream<Path> sds = (SecureDirectoryStream<Path>) ds;
      try {
        Object opened = sds.getFileAttributeView(BasicFileAttributeView.class).readAttributes().fileKey();
        if (Objects.equals(opened, key)) {
          return new OpenDir(dir, key, sds, remembered, maxRemembered);
        }
      } catch (IOException e) {
        // Falls through: looked up by path.
      }
    }
    // Not openable relative to a descriptor here, or another directory than the one checked (the
    // path changed between the check and the open): looked up by path.
    try {
      ds.close();
    } catch (IOException e) {
      // A directory descriptor has nothing to flush.
    }
    return OpenDir.byPath(dir);
  }

  /** Closes an application's directories (it stopped). */
  void closeApplication(String appId) {
    closeWhere(k -> k.appId.equals(appId));
  }

  /** Closes an application's directories at or below any of {@code dirs} (a shuffle being removed). */
  void closeUnder(String appId, List<Path> dirs) {
    closeWhere(k -> k.appId.equals(appId) && dirs.stream().anyMatch(k.dir::startsWith));
  }

  private void closeWhere(Predicate<Key> which) {
    List<OpenDir> dropped = new ArrayList<>();
    synchronized (this) {
      for (Iterator<Map.Entry<Key, OpenDir>> it = open.entrySet().iterator(); it.hasNext(); ) {
        Map.Entry<Key, OpenDir> e = it.next();
        if (which.test(e.getKey())) {
          dropped.add(e.getValue());
          it.remove();
        }
      }
    }
    dropped.forEach(OpenDir::close);
  }

  synchronized int size() {
    return open.size();
  }

  /** Names remembered across the open directories. */
  int remembered() {
    return remembered.get();
  }

  /** Closes every directory and keeps no more open. */
  @Override
  public void close() {
    List<OpenDir> dropped;
    synchronized (this) {
      closed = true;
      dropped = new ArrayList<>(open.values());
      open.clear();
    }
    dropped.forEach(OpenDir::close);
  }
}
