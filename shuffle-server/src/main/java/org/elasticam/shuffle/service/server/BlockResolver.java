package org.elasticam.shuffle.service.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import org.elasticam.shuffle.layout.CorruptIndexException;
import org.elasticam.shuffle.layout.IndexEntry;
import org.elasticam.shuffle.layout.ShuffleLayout;
import org.elasticam.shuffle.protocol.BlockHeader;
import org.elasticam.shuffle.protocol.FetchRequest;
import org.elasticam.shuffle.service.apps.ConfinementException;
import org.elasticam.shuffle.service.apps.DirConfinement;
import org.elasticam.shuffle.service.server.KeptFiles.KeptFile;
import org.elasticam.shuffle.service.server.OpenDirs.Found;
import org.elasticam.shuffle.service.server.OpenDirs.OpenDir;
import org.elasticam.shuffle.service.server.OpenDirs.Visit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds and checks every block of a fetch before anything is sent, on a disk thread: each map's
 * index and data file lie inside the executor's registered dirs with no link on the way (403 if
 * not), exist (404), the index checks out (500) and covers the reduce range (404), and the data
 * file is long enough for every entry (500). Indexes come from the {@link IndexCache} when the
 * file is unchanged; each data file is taken from {@link KeptFiles} (opened there when it is not
 * kept open already), so the descriptor the response reads is the one checked here. The files are
 * looked up in their directory, kept open between fetches while it is the one found at its path
 * ({@link OpenDirs}); in a directory unchanged for a while, a map whose index and data file are
 * both held already is confirmed by the directory's modification time instead of two lookups.
 * When owners are checked (a secure NodeManager), that check is on the descriptor, at every use: a file of
 * another user gets its 403 before anything is sent, and a file swapped after the check is never
 * read — the response reads the checked descriptor, whatever the path names by then.
 */
final class BlockResolver {

  private static final Logger LOG = LoggerFactory.getLogger(BlockResolver.class);

  /** One block to send: where its bytes are and what its header says. */
  static final class BlockSlice {
    private final KeptFile file;
    private final BlockHeader header;
    private final long offset;

    BlockSlice(KeptFile file, BlockHeader header, long offset) {
      this.file = file;
      this.header = header;
      this.offset = offset;
    }

    /** The open data file; the fetch holds it until {@link ResolvedFetch#release}. */
    public KeptFile file() {
      return file;
    }

    public BlockHeader header() {
      return header;
    }

    public long offset() {
      return offset;
    }
  }

  /**
   * Everything a 200 needs: the blocks in order, the Content-Length, whose files they must be,
   * and the open data files, held until {@link #release()}.
   */
  static final class ResolvedFetch {
    private final List<BlockSlice> blocks;
    private final long responseBytes;
    private final String user;
    private final List<KeptFile> files;
    private boolean released;

    ResolvedFetch(List<BlockSlice> blocks, long responseBytes, String user, List<KeptFile> files) {
      this.blocks = blocks;
      this.responseBytes = responseBytes;
      this.user = user;
      this.files = files;
    }

    /** Lets the data files go (once; later calls do nothing). */
    void release() {
      if (!released) {
        released = true;
        files.forEach(KeptFile::release);
      }
    }

    public List<BlockSlice> blocks() {
      return blocks;
    }

    public long responseBytes() {
      return responseBytes;
    }

    public String user() {
      return user;
    }
  }

  /** The files of one application: its id and user, its executor's dirs, and where they are read from. */
  static final class AppFiles {
    private final String appId;
    private final String user;
    private final List<Path> dirs;
    private final IndexCache indexes;
    private final KeptFiles kept;
    private final OpenDirs openDirs;

    AppFiles(String appId, String user, List<Path> dirs, IndexCache indexes, KeptFiles kept, OpenDirs openDirs) {
      this.appId = appId;
      this.user = user;
      this.dirs = dirs;
      this.indexes = indexes;
      this.kept = kept;
      this.openDirs = openDirs;
    }

    public String appId() {
      return appId;
    }

    public String user() {
      return user;
    }

    public List<Path> dirs() {
      return dirs;
    }

    public IndexCache indexes() {
      return indexes;
    }

    public KeptFiles kept() {
      return kept;
    }

    public OpenDirs openDirs() {
      return openDirs;
    }
  }

  private BlockResolver() {}

  /**
   * The fetch's blocks, holding their data files open; nothing stays held when it is rejected.
   *
   * @param nowMs the wall clock as the fetch begins (dirs' modification times are compared with it)
   */
  static ResolvedFetch resolve(FetchRequest r, AppFiles files, long nowMs) throws RejectedException {
    List<BlockSlice> out = new ArrayList<>();
    List<KeptFile> held = new ArrayList<>();
    Fetch fetch = new Fetch(files, nowMs);
    long total = 0;
    boolean ok = false;
    try {
      for (int mapId : r.maps().toArray()) {
        for (BlockSlice s : resolveMap(r, fetch, mapId, held)) {
          out.add(s);
          total += BlockHeader.SIZE + s.header().length();
        }
      }
      ok = true;
      return new ResolvedFetch(out, total, files.user(), held);
    } finally {
      if (!ok) {
        held.forEach(KeptFile::release);
      }
    }
  }

  /** A map's index entries asked for, and its data file held for the fetch with its length as found. */
  private static final class MapFiles {
    private final List<IndexEntry> entries;
    private final KeptFile data;
    private final long dataSize;

    MapFiles(List<IndexEntry> entries, KeptFile data, long dataSize) {
      this.entries = entries;
      this.data = data;
      this.dataSize = dataSize;
    }
  }

  /** One fetch's walk: its application's files, the wall clock when it began, and each dir as it found it. */
  private static final class Fetch {
    private final AppFiles files;
    private final long startMillis;
    private final Visit[] registered;

    Fetch(AppFiles files, long startMillis) {
      this.files = files;
      this.startMillis = startMillis;
      this.registered = new Visit[files.dirs().size()];
    }

    /**
     * The dir of map {@code mapId}'s files, reached by names from the registered dir that holds it
     * ({@link ShuffleLayout}), each dir checked once per fetch: the registered one by its path
     * (its real path was found inside when the executor registered), every dir below it by its
     * name in the dir above, without following a link. Kept open between fetches while each is
     * the dir found ({@link OpenDirs}).
     */
    Visit mapDir(int shuffleId, int mapId) throws IOException, ConfinementException {
      Visit v = registered(ShuffleLayout.dirIndex(registered.length, shuffleId, mapId));
      v = child(v, ShuffleLayout.ROOT);
      v = child(v, ShuffleLayout.shuffleDirName(shuffleId));
      return child(v, ShuffleLayout.subDirName(shuffleId, mapId));
    }

    private Visit registered(int i) throws IOException, ConfinementException {
      Visit v = registered[i];
      if (v == null) {
        Path p = files.dirs().get(i);
        BasicFileAttributes attrs = DirConfinement.requirePlainDir(String.valueOf(p.getFileName()),
            Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
        v = files.openDirs().get(files.appId(), p, attrs).visit(startMillis);
        registered[i] = v;
      }
      return v;
    }

    /**
     * The sub-dir {@code name} of {@code parent}: a name found before only confirms a dir kept
     * open already; one to be opened is looked up now.
     */
    private Visit child(Visit parent, String name) throws IOException, ConfinementException {
      Visit v = parent.visitedChild(name);
      if (v == null) {
        Found d = parent.plainDir(name);
        OpenDir open = d.remembered() ? files.openDirs().getOpen(files.appId(), d.path(), d.attrs()) : null;
        if (open == null) {
          if (d.remembered()) {
            d = parent.plainDirNow(name);
          }
          open = files.openDirs().get(files.appId(), d.path(), d.attrs());
        }
        v = open.visit(startMillis);
        parent.visitedChild(name, v);
      }
      return v;
    }

    /**
     * A map's index entries {@code first..last} and its data file, held open (added to {@code
     * held}). Both are taken as found before only when both names were (their dir unchanged
     * since) and both files are held already: the data file kept open, the index cached. Else
     * both are looked up now, index first (it is renamed into place after the data, so a map whose
     * index is found is complete), and read or opened: a name found before is never opened by
     * path, and a map's index and data are never taken one as found before and one as found now.
     */
    MapFiles map(Visit dir, String indexName, String dataName, int first, int last, List<KeptFile> held)
        throws IOException, ConfinementException {
      Found index = dir.plainFile(indexName);
      Found data = dir.plainFile(dataName);
      if (index.remembered() && data.remembered()) {
        KeptFile k = files.kept().acquireKept(data.path(), data.attrs(), files.appId(), files.user());
        if (k != null) {
          held.add(k);
          List<IndexEntry> entries = files.indexes().cachedEntries(index.path(), index.attrs(), files.user(), first,
              last);
          if (entries != null) {
            return new MapFiles(entries, k, data.attrs().size());
          }
          held.remove(held.size() - 1);
          k.release();
        }
      }
      BasicFileAttributes indexNow = index.remembered() ? dir.plainFileNow(indexName) : index.attrs();
      BasicFileAttributes dataNow = data.remembered() ? dir.plainFileNow(dataName) : data.attrs();
      KeptFile k = files.kept().acquire(data.path(), dataNow, files.appId(), files.user());
      held.add(k);
      return new MapFiles(files.indexes().entries(index.path(), indexNow, files.user(), first, last), k,
          dataNow.size());
    }
  }

  private static List<BlockSlice> resolveMap(FetchRequest r, Fetch fetch, int mapId, List<KeptFile> held)
      throws RejectedException {
    String which = "map " + mapId + " of shuffle " + r.shuffleId();
    try {
      MapFiles m = fetch.map(fetch.mapDir(r.shuffleId(), mapId), ShuffleLayout.indexName(mapId),
          ShuffleLayout.dataName(mapId), r.reduces().first(), r.reduces().last(), held);
      List<IndexEntry> entries = m.entries;
      KeptFile file = m.data;
      List<BlockSlice> out = new ArrayList<>(entries.size());
      for (int i = 0; i < entries.size(); i++) {
        IndexEntry e = entries.get(i);
        if (e.end() > m.dataSize) {
          throw new RejectedException(Rejection.of(500, "the index of " + which + " points past its data file"));
        }
        out.add(new BlockSlice(file, new BlockHeader(mapId, r.reduces().first() + i, e.length(), e.crc32c()),
            e.offset()));
      }
      return out;
    } catch (NoSuchFileException e) {
      throw new RejectedException(Rejection.of(404, "no output for " + which));
    } catch (IndexOutOfBoundsException e) {
      throw new RejectedException(Rejection.of(404, "reduce " + r.reduces().encode() + " is past the partitions of "
          + which));
    } catch (ConfinementException e) {
      throw new RejectedException(Rejection.of(403, e.getMessage()));
    } catch (ForeignOwnerException e) {
      LOG.info("Refused {} of {}: {}", which, r.appId(), e.getMessage());
      throw new RejectedException(Rejection.of(403, "a file of " + which + " is not owned by the application's user"));
    } catch (OwnerCheckUnavailableException e) {
      throw new RejectedException(Rejection.of(500, "this NodeManager cannot check the owners of shuffle files;"
          + " its log says why"));
    } catch (CorruptIndexException e) {
      throw new RejectedException(Rejection.of(500, "the index of " + which + " is corrupt: " + e.getMessage()));
    } catch (IOException e) {
      throw new RejectedException(Rejection.of(500, "cannot read the output of " + which + ": "
          + e.getClass().getSimpleName()));
    }
  }
}
