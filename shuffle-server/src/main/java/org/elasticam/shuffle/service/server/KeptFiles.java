package org.elasticam.shuffle.service.server;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Data files kept open between fetches, at most {@code max} of them, least recently used closed
 * first: every reducer of a map reads the same data file, and opening and closing it for each
 * fetch was, after the path checks, most of what a fetch of small blocks cost. A kept file is
 * used only while its path still names the same file (the inode and device the caller has just
 * read with {@code lstat}); a file replaced by a re-run map is closed and the new one opened. When
 * owners are checked, the owner of the kept descriptor is checked again at every use, so a
 * {@code chown} after the open is seen. An application's files are closed when it stops.
 *
 * <p>A file in use by a response is closed only when the response lets it go (reference counts):
 * the open descriptors are the kept ones plus those of responses under way (at most one per
 * connection, each of its maps). Thread-safe: disk threads acquire, event loops release.
 */
final class KeptFiles implements AutoCloseable {

  /** One open data file, shared by the fetches that read it. */
  static final class KeptFile {
    private final Path path;
    private final String appId;
    private final Object fileKey;
    private final OpenedFile file;
    private final AtomicInteger refs = new AtomicInteger(1);

    private KeptFile(Path path, String appId, Object fileKey, OpenedFile file) {
      this.path = path;
      this.appId = appId;
      this.fileKey = fileKey;
      this.file = file;
    }

    Path path() {
      return path;
    }

    FileChannel channel() {
      return file.channel();
    }

    /** One more user; only while the caller holds a reference already. */
    KeptFile retain() {
      refs.incrementAndGet();
      return this;
    }

    /** One user fewer; the last closes the file. */
    void release() {
      if (refs.decrementAndGet() == 0) {
        try {
          file.channel().close();
        } catch (IOException e) {
          // Read-only: nothing was lost.
        }
      }
    }
  }

  private final int max;
  private final OwnedFileOpener opener;
  private final LinkedHashMap<Path, KeptFile> kept = new LinkedHashMap<>(256, 0.75f, true);
  private boolean closed;

  /** @param max files kept open at most; 0 opens each file for one fetch only */
  KeptFiles(int max, OwnedFileOpener opener) {
    this.max = max;
    this.opener = opener;
  }

  /**
   * The data file at {@code path}, of application {@code appId}, whose attributes (read without
   * following links) are {@code attrs}, for the application's {@code user}; the caller releases
   * it once.
   *
   * @throws ForeignOwnerException when owners are checked and {@code user} does not own it
   */
  KeptFile acquire(Path path, BasicFileAttributes attrs, String appId, String user) throws IOException {
    KeptFile k = acquireKept(path, attrs, appId, user);
    if (k != null) {
      return k;
    }
    KeptFile opened = new KeptFile(path, appId, attrs.fileKey(), opener.openChecked(path, user));
    if (attrs.fileKey() != null && max > 0) {
      keep(opened);
    }
    return opened;
  }

  /**
   * As {@link #acquire} when the file is kept open already as the file {@code attrs} names; else
   * {@code null}, and nothing is opened.
   *
   * @throws ForeignOwnerException when owners are checked and {@code user} does not own it
   */
  KeptFile acquireKept(Path path, BasicFileAttributes attrs, String appId, String user) throws IOException {
    Object key = attrs.fileKey();
    KeptFile k;
    List<KeptFile> dropped = new ArrayList<>(1);
    synchronized (this) {
      k = kept.get(path);
      if (k != null && (!Objects.equals(k.fileKey, key) || !k.channel().isOpen() || !k.appId.equals(appId))) {
        kept.remove(path);
        dropped.add(k);
        k = null;
      }
      if (k != null) {
        k.retain();
      }
    }
    dropped.forEach(KeptFile::release);
    if (k != null) {
      try {
        k.file.checkOwner(user);
      } catch (IOException | RuntimeException e) {
        k.release();
        throw e;
      }
    }
    return k;
  }

  private void keep(KeptFile k) {
    List<KeptFile> dropped = new ArrayList<>(2);
    synchronized (this) {
      if (closed) {
        return;
      }
      KeptFile old = kept.put(k.path, k.retain());
      if (old != null) {
        dropped.add(old);
      }
      for (Iterator<KeptFile> it = kept.values().iterator(); kept.size() > max && it.hasNext(); ) {
        dropped.add(it.next());
        it.remove();
      }
    }
    dropped.forEach(KeptFile::release);
  }

  /** Closes the files of an application that stopped (those in use, once their responses end). */
  void closeApplication(String appId) {
    closeWhere(k -> k.appId.equals(appId));
  }

  /**
   * Closes the application's files below any of {@code dirs} (a shuffle being deleted): an open
   * descriptor would keep a deleted file's blocks on the disk.
   */
  void closeUnder(String appId, List<Path> dirs) {
    closeWhere(k -> k.appId.equals(appId) && dirs.stream().anyMatch(k.path::startsWith));
  }

  private void closeWhere(java.util.function.Predicate<KeptFile> which) {
    List<KeptFile> dropped = new ArrayList<>();
    synchronized (this) {
      for (Iterator<Map.Entry<Path, KeptFile>> it = kept.entrySet().iterator(); it.hasNext(); ) {
        KeptFile k = it.next().getValue();
        if (which.test(k)) {
          dropped.add(k);
          it.remove();
        }
      }
    }
    dropped.forEach(KeptFile::release);
  }

  synchronized int size() {
    return kept.size();
  }

  /** Closes every kept file and keeps no more. */
  @Override
  public void close() {
    List<KeptFile> dropped;
    synchronized (this) {
      closed = true;
      dropped = new ArrayList<>(kept.values());
      kept.clear();
    }
    dropped.forEach(KeptFile::release);
  }
}
