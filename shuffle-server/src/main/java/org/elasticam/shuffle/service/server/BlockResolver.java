package org.elasticam.shuffle.service.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.elasticam.shuffle.layout.CorruptIndexException;
import org.elasticam.shuffle.layout.IndexEntry;
import org.elasticam.shuffle.layout.ShuffleLayout;
import org.elasticam.shuffle.protocol.BlockHeader;
import org.elasticam.shuffle.protocol.FetchRequest;
import org.elasticam.shuffle.service.apps.ConfinementException;
import org.elasticam.shuffle.service.apps.DirConfinement;
import org.elasticam.shuffle.service.server.KeptFiles.KeptFile;
import org.elasticam.shuffle.service.server.OpenDirs.OpenDir;
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
 * ({@link OpenDirs}). When owners
 * are checked (a secure NodeManager), that check is on the descriptor, at every use: a file of
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

  /** The fetch's blocks, holding their data files open; nothing stays held when it is rejected. */
  static ResolvedFetch resolve(FetchRequest r, AppFiles files) throws RejectedException {
    List<BlockSlice> out = new ArrayList<>();
    List<KeptFile> held = new ArrayList<>();
    Map<Path, OpenDir> fetchDirs = new HashMap<>();
    long total = 0;
    boolean ok = false;
    try {
      for (int mapId : r.maps().toArray()) {
        for (BlockSlice s : resolveMap(r, files, fetchDirs, mapId, held)) {
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

  /**
   * The dir {@code p}, checked once per fetch: a registered dir by its path (its real path was found
   * inside when the executor registered), every dir below it by its name in the dir above, without
   * following a link. Kept open between fetches while each is the dir found ({@link OpenDirs}).
   */
  private static OpenDir dir(Path p, AppFiles files, Map<Path, OpenDir> fetchDirs)
      throws IOException, ConfinementException {
    OpenDir d = fetchDirs.get(p);
    if (d != null) {
      return d;
    }
    BasicFileAttributes attrs;
    if (files.dirs().contains(p)) {
      attrs = DirConfinement.requirePlainDir(String.valueOf(p.getFileName()),
          Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS));
    } else {
      Path parent = p.getParent();
      if (parent == null || files.dirs().stream().noneMatch(p::startsWith)) {
        throw new ConfinementException("a shuffle file lies outside the executor's registered dirs");
      }
      attrs = dir(parent, files, fetchDirs).plainDir(p.getFileName().toString());
    }
    d = files.openDirs().get(files.appId(), p, attrs);
    fetchDirs.put(p, d);
    return d;
  }

  private static List<BlockSlice> resolveMap(FetchRequest r, AppFiles files, Map<Path, OpenDir> fetchDirs, int mapId,
      List<KeptFile> held) throws RejectedException {
    String which = "map " + mapId + " of shuffle " + r.shuffleId();
    List<Path> dirs = files.dirs();
    try {
      Path index = ShuffleLayout.indexFile(dirs, r.shuffleId(), mapId);
      Path data = ShuffleLayout.dataFile(dirs, r.shuffleId(), mapId);
      BasicFileAttributes indexAttrs = dir(index.getParent(), files, fetchDirs).plainFile(index.getFileName().toString());
      BasicFileAttributes dataAttrs = dir(data.getParent(), files, fetchDirs).plainFile(data.getFileName().toString());
      KeptFile file = files.kept().acquire(data, dataAttrs, files.appId(), files.user());
      held.add(file);
      List<IndexEntry> entries = files.indexes().entries(index, indexAttrs, files.user(), r.reduces().first(),
          r.reduces().last());
      List<BlockSlice> out = new ArrayList<>(entries.size());
      for (int i = 0; i < entries.size(); i++) {
        IndexEntry e = entries.get(i);
        if (e.end() > dataAttrs.size()) {
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
