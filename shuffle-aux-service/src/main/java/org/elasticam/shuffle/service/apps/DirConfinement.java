package org.elasticam.shuffle.service.apps;

import java.io.IOException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The check that keeps every read inside an application's own directories: a path counts as inside
 * only when its real path (symbolic links and {@code ..} resolved by the file system) lies under
 * the real path of one of the allowed roots. A symlink planted in the app dir that points
 * elsewhere, a {@code ..} that climbs out, or another application's dir all fail.
 */
public final class DirConfinement {

  private DirConfinement() {}

  /**
   * The real paths of an executor's dirs, each inside one of {@code roots}.
   *
   * @throws ConfinementException for a dir that does not exist, is not a directory, or lies outside
   */
  public static List<Path> confine(List<String> dirs, List<Path> roots) throws ConfinementException {
    List<Path> realRoots = realPaths(roots);
    List<Path> out = new ArrayList<>(dirs.size());
    for (String d : dirs) {
      Path p = Path.of(d);
      if (!p.isAbsolute()) {
        throw new ConfinementException("not an absolute path: " + d);
      }
      Path real;
      try {
        real = p.toRealPath();
      } catch (IOException e) {
        throw new ConfinementException("cannot resolve " + d + ": " + e.getClass().getSimpleName());
      }
      if (!java.nio.file.Files.isDirectory(real, LinkOption.NOFOLLOW_LINKS)) {
        throw new ConfinementException("not a directory: " + d);
      }
      if (!inside(real, realRoots)) {
        throw new ConfinementException(d + " is not inside the application's NodeManager directories");
      }
      out.add(real);
    }
    return out;
  }

  /**
   * The real path of {@code file} when it lies inside one of the (already real) {@code dirs}.
   *
   * @throws java.nio.file.NoSuchFileException when the file is missing
   * @throws ConfinementException when it resolves outside
   */
  public static Path confineFile(Path file, List<Path> realDirs) throws IOException, ConfinementException {
    Path real = file.toRealPath();
    if (!inside(real, realDirs)) {
      throw new ConfinementException("a shuffle file resolves outside the executor's registered dirs");
    }
    return real;
  }

  private static boolean inside(Path real, List<Path> realRoots) {
    for (Path root : realRoots) {
      if (real.startsWith(root)) {
        return true;
      }
    }
    return false;
  }

  private static List<Path> realPaths(List<Path> roots) {
    List<Path> out = new ArrayList<>();
    for (Path r : roots) {
      try {
        out.add(r.toRealPath());
      } catch (IOException e) {
        // A root that does not exist confines nothing.
      }
    }
    return out;
  }
}
