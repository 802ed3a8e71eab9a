package org.elasticam.shuffle.service.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.elasticam.shuffle.layout.CorruptIndexException;
import org.elasticam.shuffle.layout.IndexEntry;
import org.elasticam.shuffle.layout.IndexFile;

/**
 * Whole index files kept in memory between fetches, least recently used first out, within a byte
 * bound. Every reducer of a map reads the same index, so without this each fetch opens, reads and
 * closes it again. A cached copy is used only while the file on disk is the one it was read from
 * (same inode, modification time and size, which the caller has just looked up anyway), so a map
 * output replaced by a re-run is read afresh; its entries are checked on every use, as a read
 * from disk is.
 *
 * <p>Files are opened through the {@link OwnedFileOpener}. When it checks owners, a copy also
 * belongs to the user it was checked for and counts only while the file's status change time is
 * the one read before it was opened: a {@code chown} keeps the inode, the modification time and
 * the size but changes that time, so a file given to another user is opened (and refused) again.
 */
final class IndexCache {

  /** Anything larger than this is read each time rather than evicting everything else. */
  private static final int MAX_CACHED_FILE = 1 << 20;

  private static final class Cached {
    private final Object fileKey;
    private final long modifiedMillis;
    private final Object changed;
    private final String user;
    private final byte[] bytes;

    private Cached(Object fileKey, long modifiedMillis, Object changed, String user, byte[] bytes) {
      this.fileKey = fileKey;
      this.modifiedMillis = modifiedMillis;
      this.changed = changed;
      this.user = user;
      this.bytes = bytes;
    }

    public Object fileKey() {
      return fileKey;
    }

    public long modifiedMillis() {
      return modifiedMillis;
    }

    public Object changed() {
      return changed;
    }

    public String user() {
      return user;
    }

    public byte[] bytes() {
      return bytes;
    }
  }

  private final long maxBytes;
  private final OwnedFileOpener files;
  private final LinkedHashMap<Path, Cached> cached = new LinkedHashMap<>(256, 0.75f, true);
  private long bytes;

  IndexCache(long maxBytes, OwnedFileOpener files) {
    this.maxBytes = maxBytes;
    this.files = files;
  }

  /**
   * The entries of partitions {@code first..last} of the index at {@code path}, whose attributes
   * (read without following links) are {@code attrs}, for an application of {@code user}.
   *
   * @throws ForeignOwnerException when owners are checked and {@code user} does not own the file
   */
  List<IndexEntry> entries(Path path, BasicFileAttributes attrs, String user, int first, int last)
      throws IOException {
    List<IndexEntry> cachedEntries = cachedEntries(path, attrs, user, first, last);
    if (cachedEntries != null) {
      return cachedEntries;
    }
    if (attrs.fileKey() == null || attrs.size() > Math.min(MAX_CACHED_FILE, maxBytes)) {
      try (FileChannel ch = files.open(path, user)) {
        return IndexFile.read(ch, first, last);
      }
    }
    Object changed = changeTime(path);
    byte[] whole = readWhole(path, user, (int) attrs.size());
    List<IndexEntry> out = IndexFile.read(whole, first, last);
    put(path, new Cached(attrs.fileKey(), attrs.lastModifiedTime().toMillis(), changed, user, whole));
    return out;
  }

  /**
   * As {@link #entries} when a copy of the file {@code attrs} names is held; else {@code null},
   * and nothing is opened.
   */
  List<IndexEntry> cachedEntries(Path path, BasicFileAttributes attrs, String user, int first, int last)
      throws IOException {
    Cached c;
    synchronized (this) {
      c = cached.get(path);
    }
    if (c != null && Objects.equals(c.fileKey(), attrs.fileKey())
        && c.modifiedMillis() == attrs.lastModifiedTime().toMillis() && c.bytes().length == attrs.size()
        && c.user().equals(user) && Objects.equals(c.changed(), changeTime(path))) {
      return IndexFile.read(c.bytes(), first, last);
    }
    return null;
  }

  /** The file's status change time when owners are checked (a {@code chown} moves it on); else nothing is read. */
  private Object changeTime(Path path) throws IOException {
    return files.checksOwner() ? Files.getAttribute(path, "unix:ctime", LinkOption.NOFOLLOW_LINKS) : null;
  }

  private byte[] readWhole(Path path, String user, int size) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(size);
    try (FileChannel ch = files.open(path, user)) {
      while (b.hasRemaining()) {
        if (ch.read(b, b.position()) < 0) {
          throw new CorruptIndexException("index file truncated while read");
        }
      }
      if (ch.size() != size) {
        throw new CorruptIndexException("index file changed size while read");
      }
    }
    return b.array();
  }

  private synchronized void put(Path path, Cached c) {
    Cached old = cached.put(path, c);
    bytes += c.bytes().length - (old == null ? 0 : old.bytes().length);
    for (Iterator<Map.Entry<Path, Cached>> it = cached.entrySet().iterator(); bytes > maxBytes && it.hasNext(); ) {
      bytes -= it.next().getValue().bytes().length;
      it.remove();
    }
  }

  synchronized long cachedBytes() {
    return bytes;
  }
}
