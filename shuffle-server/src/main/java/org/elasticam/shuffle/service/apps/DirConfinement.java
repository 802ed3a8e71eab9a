package org.elasticam.shuffle.service.apps;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * The checks that keep every read inside an application's own directories. A registered dir
 * counts as inside only when its real path (symbolic links and {@code ..} resolved by the file
 * system) lies under the real path of one of the allowed roots; a file to serve counts only when
 * it sits below one of those real dirs with no symbolic link anywhere on the way. A symlink
 * planted in the app dir that points elsewhere, a {@code ..} that climbs out, or another
 * application's dir all fail.
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
      Path p = Paths.get(d);
      if (!p.isAbsolute()) {
        throw new ConfinementException("not an absolute path: " + d);
      }
      Path real;
      try {
        real = p.toRealPath();
      } catch (IOException e) {
        throw new ConfinementException("cannot resolve " + d + ": " + e.getClass().getSimpleName());
      }
      if (!Files.isDirectory(real, LinkOption.NOFOLLOW_LINKS)) {
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
   * Refuses a directory named {@code name} on the way from a registered dir to a shuffle file
   * unless its attributes, read without following links, are those of a directory: each component
   * below the registered dir is looked at this way, relative to the one above it, so a symbolic
   * link anywhere under the executor's dirs, or a {@code ..}, is refused. This costs one lookup of
   * one name per component, where resolving the whole real path costs a {@code readlink} for
   * every component from the root.
   */
  public static BasicFileAttributes requirePlainDir(String name, BasicFileAttributes a) throws ConfinementException {
    return require(name, a, a.isDirectory(), "not a plain directory");
  }

  /**
   * Refuses a file named {@code name} in a dir reached by {@link #requirePlainDir} unless its
   * attributes, read without following links, are those of a regular file.
   */
  public static BasicFileAttributes requirePlainFile(String name, BasicFileAttributes a) throws ConfinementException {
    return require(name, a, a.isRegularFile(), "not a plain file");
  }

  /** {@code a} when {@code name} stays in its dir and {@code kindOk}; else the refusal, naming a link as one. */
  private static BasicFileAttributes require(String name, BasicFileAttributes a, boolean kindOk, String notKind)
      throws ConfinementException {
    if (name.equals("..") || name.equals(".") || name.indexOf('/') >= 0) {
      throw new ConfinementException("a shuffle file path climbs out of the executor's registered dirs");
    }
    if (!kindOk) {
      throw new ConfinementException("a shuffle file resolves outside the executor's registered dirs ("
          + (a.isSymbolicLink() ? "a symbolic link" : notKind) + ")");
    }
    return a;
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
