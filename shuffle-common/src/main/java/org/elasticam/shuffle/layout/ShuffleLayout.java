package org.elasticam.shuffle.layout;

import java.nio.file.Path;
import java.util.List;

/**
 * Where map task {@code m} of shuffle {@code s} keeps its output: one data file and one index,
 *
 * <pre>
 * &lt;dir&gt;/elasticam-shuffle/s&lt;s&gt;/&lt;xx&gt;/map-&lt;m&gt;.data
 * &lt;dir&gt;/elasticam-shuffle/s&lt;s&gt;/&lt;xx&gt;/map-&lt;m&gt;.index
 * </pre>
 *
 * where the dirs are the executor's <b>application-level</b> local dirs ({@code LOCAL_DIRS},
 * {@code .../usercache/<user>/appcache/<appId>}: they outlive the container, whose work dir YARN
 * deletes when it exits), {@code dir} is chosen among them by a hash of (s, m) so that output
 * spreads over disks, and {@code xx} (two hex digits of the hash) keeps directories small. Both
 * the writer and the service compute the path from the same registered dir list.
 */
public final class ShuffleLayout {

  public static final String ROOT = "elasticam-shuffle";

  /** The sub-dir's two lower-case hex digits, as {@code %02x} writes them (without a Formatter per lookup). */
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private ShuffleLayout() {}

  public static Path dataFile(List<Path> dirs, int shuffleId, int mapId) {
    return mapDir(dirs, shuffleId, mapId).resolve(dataName(mapId));
  }

  public static Path indexFile(List<Path> dirs, int shuffleId, int mapId) {
    return mapDir(dirs, shuffleId, mapId).resolve(indexName(mapId));
  }

  /** All of one shuffle's output in one dir: what deleting a shuffle removes. */
  public static Path shuffleDir(Path dir, int shuffleId) {
    return dir.resolve(ROOT).resolve(shuffleDirName(shuffleId));
  }

  static Path mapDir(List<Path> dirs, int shuffleId, int mapId) {
    Path dir = dirs.get(dirIndex(dirs.size(), shuffleId, mapId));
    return shuffleDir(dir, shuffleId).resolve(subDirName(shuffleId, mapId));
  }

  /**
   * Which of {@code dirCount} dirs holds map {@code mapId} of shuffle {@code shuffleId}: the map's
   * files are {@code <that dir>/}{@link #ROOT}{@code /}{@link #shuffleDirName}{@code /}{@link
   * #subDirName}{@code /}{@link #dataName} and {@link #indexName}, for a reader that walks there by
   * names.
   */
  public static int dirIndex(int dirCount, int shuffleId, int mapId) {
    if (dirCount < 1) {
      throw new IllegalArgumentException("no local dirs");
    }
    return Math.floorMod(hash(shuffleId, mapId), dirCount);
  }

  public static String shuffleDirName(int shuffleId) {
    return "s" + shuffleId;
  }

  /** The map's sub-dir within its shuffle's dir: two lower-case hex digits of the hash. */
  public static String subDirName(int shuffleId, int mapId) {
    int b = (hash(shuffleId, mapId) >>> 24) & 0xff;
    return new String(new char[] {HEX[b >>> 4], HEX[b & 0xf]});
  }

  public static String dataName(int mapId) {
    return "map-" + mapId + ".data";
  }

  public static String indexName(int mapId) {
    return "map-" + mapId + ".index";
  }

  private static int hash(int shuffleId, int mapId) {
    if (shuffleId < 0 || mapId < 0) {
      throw new IllegalArgumentException("ids are >= 0: shuffle " + shuffleId + ", map " + mapId);
    }
    return mix(shuffleId * 0x9E3779B1L + mapId);
  }

  /** A fixed mixing function (murmur3's finaliser): the layout must never change between versions. */
  private static int mix(long x) {
    x ^= x >>> 33;
    x *= 0xff51afd7ed558ccdL;
    x ^= x >>> 33;
    x *= 0xc4ceb9fe1a85ec53L;
    x ^= x >>> 33;
    return (int) x;
  }
}
