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
    return mapDir(dirs, shuffleId, mapId).resolve("map-" + mapId + ".data");
  }

  public static Path indexFile(List<Path> dirs, int shuffleId, int mapId) {
    return mapDir(dirs, shuffleId, mapId).resolve("map-" + mapId + ".index");
  }

  /** All of one shuffle's output in one dir: what deleting a shuffle removes. */
  public static Path shuffleDir(Path dir, int shuffleId) {
    return dir.resolve(ROOT).resolve("s" + shuffleId);
  }

  static Path mapDir(List<Path> dirs, int shuffleId, int mapId) {
    if (dirs.isEmpty()) {
      throw new IllegalArgumentException("no local dirs");
    }
    if (shuffleId < 0 || mapId < 0) {
      throw new IllegalArgumentException("ids are >= 0: shuffle " + shuffleId + ", map " + mapId);
    }
    int h = mix(shuffleId * 0x9E3779B1L + mapId);
    Path dir = dirs.get(Math.floorMod(h, dirs.size()));
    int b = (h >>> 24) & 0xff;
    String sub = new String(new char[] {HEX[b >>> 4], HEX[b & 0xf]});
    return shuffleDir(dir, shuffleId).resolve(sub);
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
