package org.elasticam.shuffle.service.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.elasticam.shuffle.service.state.JournalCodec.StoredAppBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pure-Java, checksummed, append-only journal in the NodeManager's recovery path for this
 * service. Opening replays it, then compacts it (the live state rewritten to a new file, synced,
 * renamed over the old one), so the file never grows past one write per live record plus the
 * changes since the last start.
 *
 * <ul>
 *   <li>A torn last record (the NodeManager died mid-append) is dropped with a warning.</li>
 *   <li>Anything else that does not check out — magic, header, a record in the middle — means the
 *       file is corrupt: it is moved aside to {@code state.journal.corrupt-<ms>}, logged at ERROR,
 *       and the service starts empty.</li>
 *   <li>Another major schema version refuses to start ({@link IncompatibleStateException}).</li>
 * </ul>
 *
 * Appends are not synced: they survive a NodeManager crash (the page cache keeps them), as the
 * NodeManager's own state store does; compaction is synced.
 */
public final class JournalStore implements StateStore {

  private static final Logger LOG = LoggerFactory.getLogger(JournalStore.class);
  static final String FILE = "state.journal";

  private final Path file;
  private final List<StoredApp> recovered;
  private final boolean startedFromCorrupt;
  private final FileChannel out;

  private JournalStore(Path file, List<StoredApp> recovered, boolean startedFromCorrupt, FileChannel out) {
    this.file = file;
    this.recovered = recovered;
    this.startedFromCorrupt = startedFromCorrupt;
    this.out = out;
  }

  /**
   * Opens (or creates) the journal in {@code dir}.
   *
   * @param nowMs names a corrupt file moved aside
   * @throws IncompatibleStateException when the journal has another major version
   */
  public static JournalStore open(Path dir, long nowMs) throws IOException {
    createPrivateDir(dir);
    Path file = dir.resolve(FILE);
    List<StoredApp> apps = Collections.emptyList();
    boolean corrupt = false;
    if (Files.exists(file)) {
      try {
        apps = replay(file);
      } catch (CorruptStateException e) {
        Path aside = dir.resolve(FILE + ".corrupt-" + nowMs);
        Files.move(file, aside);
        LOG.error("The shuffle service's recovery journal {} is corrupt ({}); moved it to {} and starting EMPTY:"
            + " applications registered before this restart cannot be served until they register again", file,
            e.getMessage(), aside);
        corrupt = true;
      }
    }
    compact(file, apps);
    FileChannel out = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    LOG.info("Shuffle service recovery journal {}: {} applications recovered", file, apps.size());
    return new JournalStore(file, apps, corrupt, out);
  }

  private static void createPrivateDir(Path dir) throws IOException {
    Files.createDirectories(dir);
    try {
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    } catch (UnsupportedOperationException e) {
      // Not a POSIX file system: nothing more we can do.
    }
  }

  static List<StoredApp> replay(Path file) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file));
    int[] version = JournalCodec.readHeader(b);
    if (version[0] != JournalCodec.MAJOR) {
      throw new IncompatibleStateException("the shuffle service's recovery journal " + file + " has schema version "
          + version[0] + "." + version[1] + "; this service reads " + JournalCodec.MAJOR + ".x. Move the file away"
          + " (losing the registrations it holds) or run the service version that wrote it");
    }
    Map<String, StoredAppBuilder> apps = new LinkedHashMap<>();
    b.position(JournalCodec.HEADER_SIZE);
    while (b.hasRemaining()) {
      if (!nextRecord(b, apps, file)) {
        break;
      }
    }
    return apps.values().stream().map(StoredAppBuilder::build)
        .collect(Collectors.collectingAndThen(Collectors.toList(), Collections::unmodifiableList));
  }

  /** Applies the next record; false when the rest of the file is a torn last record. */
  private static boolean nextRecord(ByteBuffer b, Map<String, StoredAppBuilder> apps, Path file) throws IOException {
    int start = b.position();
    if (b.remaining() < JournalCodec.RECORD_OVERHEAD) {
      return tornTail(file, start, b.limit());
    }
    int len = b.getInt();
    int crc = b.getInt();
    if (len < 1 || len > JournalCodec.MAX_PAYLOAD) {
      throw new CorruptStateException("record at byte " + start + " claims " + len + " bytes");
    }
    if (len > b.remaining()) {
      return tornTail(file, start, b.limit());
    }
    byte[] payload = new byte[len];
    b.get(payload);
    if (JournalCodec.crc(payload, 0, len) != crc) {
      if (!b.hasRemaining()) {
        return tornTail(file, start, b.limit());
      }
      throw new CorruptStateException("record at byte " + start + " fails its checksum");
    }
    JournalCodec.apply(ByteBuffer.wrap(payload), apps);
    return true;
  }

  private static boolean tornTail(Path file, int start, int size) {
    LOG.warn("Dropping a torn last record ({} bytes at {}) of {}: the NodeManager stopped mid-write", size - start,
        start, file);
    return false;
  }

  /** Writes the live state to a new file, synced, and renames it over the journal. */
  private static void compact(Path file, List<StoredApp> apps) throws IOException {
    Path tmp = file.resolveSibling(FILE + ".tmp");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      writeAll(ch, JournalCodec.header(JournalCodec.MAJOR, JournalCodec.MINOR));
      for (StoredApp a : apps) {
        writeAll(ch, JournalCodec.putApp(a.appId(), a.user(), a.secret()));
        for (Map.Entry<String, List<String>> e : a.executors().entrySet()) {
          writeAll(ch, JournalCodec.putExecutor(a.appId(), e.getKey(), e.getValue()));
        }
      }
      ch.force(true);
    }
    try {
      Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException e) {
      // Not a POSIX file system: the private dir is all there is.
    }
    try {
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static void writeAll(FileChannel ch, byte[] bytes) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    while (b.hasRemaining()) {
      ch.write(b);
    }
  }

  @Override
  public List<StoredApp> recovered() {
    return recovered;
  }

  @Override
  public boolean startedFromCorrupt() {
    return startedFromCorrupt;
  }

  @Override
  public synchronized void putApp(String appId, String user, byte[] secret) throws IOException {
    writeAll(out, JournalCodec.putApp(appId, user, secret));
  }

  @Override
  public synchronized void removeApp(String appId) throws IOException {
    writeAll(out, JournalCodec.removeApp(appId));
  }

  @Override
  public synchronized void putExecutor(String appId, String executorId, List<String> dirs) throws IOException {
    writeAll(out, JournalCodec.putExecutor(appId, executorId, dirs));
  }

  @Override
  public synchronized void close() throws IOException {
    out.close();
  }

  @Override
  public String toString() {
    return "JournalStore[" + file + "]";
  }
}
