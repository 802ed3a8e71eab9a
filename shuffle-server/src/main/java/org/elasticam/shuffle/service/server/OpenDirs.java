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
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
 * before (a regular file, not a link). Bounded ({@link #MAX}, least recently used closed first);
 * an application's directories close when it stops, a shuffle's when it is removed. Where the
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
      return o instanceof Key && ((Key) o).appId.equals(appId) && ((Key) o).dir.equals(dir);
    }

    @Override
    public int hashCode() {
      return appId.hashCode() * 31 + dir.hashCode();
    }
  }

  private final int max;
  private final LinkedHashMap<Key, OpenDir> open = new LinkedHashMap<>(16, 0.75f, true);
  private boolean closed;

  OpenDirs(int max) {
    this.max = max;
  }

  /** A directory to look files up in: through its open descriptor, or by path. */
  static final class OpenDir {
    private final Path path;
    private final Object fileKey;
    private final SecureDirectoryStream<Path> stream;

    private OpenDir(Path path, Object fileKey, SecureDirectoryStream<Path> stream) {
      this.path = path;
      this.fileKey = fileKey;
      this.stream = stream;
    }

    static OpenDir byPath(Path path) {
      return new OpenDir(path, null, null);
    }

    /** Whether lookups go through an open descriptor (else by path). */
    boolean isOpen() {
      return stream != null;
    }

    /**
     * The attributes of the regular file {@code name} in this directory, read without following a
     * link.
     *
     * @throws java.nio.file.NoSuchFileException when there is none
     * @throws ConfinementException when it is a link or not a regular file
     */
    BasicFileAttributes plainFile(String name) throws IOException, ConfinementException {
      return DirConfinement.requirePlainFile(name, lookUp(name));
    }

    /**
     * The attributes of the directory {@code name} in this directory, read without following a
     * link.
     *
     * @throws java.nio.file.NoSuchFileException when there is none
     * @throws ConfinementException when it is a link or not a directory
     */
    BasicFileAttributes plainDir(String name) throws IOException, ConfinementException {
      return DirConfinement.requirePlainDir(name, lookUp(name));
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

    private void close() {
      if (stream != null) {
        try {
          stream.close();
        } catch (IOException e) {
          // A directory descriptor has nothing to flush.
        }
      }
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
    Key k = new Key(appId, dir);
    synchronized (this) {
      OpenDir d = open.get(k);
      if (d != null && d.fileKey.equals(key)) {
        return d;
      }
    }
    OpenDir fresh = openAs(dir, key);
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

  /** {@code dir} opened, when what opens is the directory {@code key} names; else by path. */
  private static OpenDir openAs(Path dir, Object key) {
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
          return new OpenDir(dir, key, sds);
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
