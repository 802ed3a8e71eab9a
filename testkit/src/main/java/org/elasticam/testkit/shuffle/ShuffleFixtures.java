package org.elasticam.testkit.shuffle;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.elasticam.shuffle.layout.MapOutputWriter;

/**
 * Map outputs with known content, for the tests of this module, the service and the integration
 * tests: block (s, m, r) holds {@link #blockBytes} of a size given by the caller, so every fetched
 * byte can be checked.
 */
public final class ShuffleFixtures {

  /** How big block (map, reduce) is. */
  @FunctionalInterface
  public interface BlockSize {
    int of(int mapId, int reduceId);
  }

  private ShuffleFixtures() {}

  /** Deterministic content of block (shuffle, map, reduce). */
  public static byte[] blockBytes(int shuffleId, int mapId, int reduceId, int size) {
    SplittableRandom r = new SplittableRandom(((long) shuffleId << 40) ^ ((long) mapId << 20) ^ reduceId);
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) {
      b[i] = (byte) r.nextInt(256);
    }
    return b;
  }

  /** Writes maps {@code 0..maps-1} of a shuffle with {@code reduces} partitions each. */
  public static void writeMaps(List<Path> dirs, int shuffleId, int maps, int reduces, BlockSize size) throws IOException {
    for (int m = 0; m < maps; m++) {
      List<byte[]> blocks = new ArrayList<>();
      for (int r = 0; r < reduces; r++) {
        blocks.add(blockBytes(shuffleId, m, r, size.of(m, r)));
      }
      MapOutputWriter.writeAll(dirs, shuffleId, m, blocks);
    }
  }

  /** An application's app-cache dir under a NodeManager local dir, created. */
  public static Path appCacheDir(Path nmLocalDir, String user, String appId) throws IOException {
    return Files.createDirectories(nmLocalDir.resolve("usercache").resolve(user).resolve("appcache").resolve(appId));
  }

  public static byte[] newSecret() {
    byte[] s = new byte[32];
    new SecureRandom().nextBytes(s);
    return s;
  }
}
