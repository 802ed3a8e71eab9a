package org.elasticam.shuffle.service.apps;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

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
   * The attributes of {@code file}, a regular file below one of the (already real) {@code dirs}
   * with nothing but plain directories between that dir and it: each component below the dir is
   * looked at without following links, so a symbolic link anywhere under the executor's dirs, or
   * a {@code ..}, is refused. This costs one {@code lstat} per component below the dir, where
   * resolving the whole real path costs a {@code readlink} for every component from the root —
   * the difference is most of the service's CPU time on small blocks.
   *
   * <p>{@code checkedDirs} remembers the dirs already found plain for this caller (one fetch,
   * whose maps share most of their dirs), so each is looked at once per fetch, and a file whose
   * own dir is among them costs one {@code lstat} of the file; pass a new set to check everything.
   *
   * @throws java.nio.file.NoSuchFileException when the file or a dir on its way is missing
   * @throws ConfinementException when it is not a plain regular file under a plain dir chain
   */
  public static BasicFileAttributes confineFile(Path file, List<Path> realDirs, Set<Path> checkedDirs)
      throws IOException, ConfinementException {
    Path parent = file.getParent();
    if (parent != null && checkedDirs.contains(parent)) {
      // The chain from a registered dir down to the parent was found plain in this fetch.
      return plainFile(file, file.getFileName().toString());
    }
    Path base = null;
    for (Path d : realDirs) {
      if (file.startsWith(d)) {
        base = d;
        break;
      }
    }
    Path rel = base == null ? null : base.relativize(file);
    if (rel == null || rel.getNameCount() == 0 || rel.toString().isEmpty()) {
      throw new ConfinementException("a shuffle file lies outside the executor's registered dirs");
    }
    Path at = base;
    for (int i = 0; i < rel.getNameCount(); i++) {
      String name = rel.getName(i).toString();
      if (name.equals("..") || name.equals(".")) {
        throw new ConfinementException("a shuffle file path climbs out of the executor's registered dirs");
      }
      at = at.resolve(name);
      if (i == rel.getNameCount() - 1) {
        return plainFile(at, name);
      }
      if (checkedDirs.contains(at)) {
        continue;
      }
      BasicFileAttributes a = Files.readAttributes(at, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (!a.isDirectory()) {
        throw new ConfinementException("a shuffle file resolves outside the executor's registered dirs ("
            + (a.isSymbolicLink() ? "a symbolic link" : "not a plain directory") + ")");
      }
      checkedDirs.add(at);
    }
    throw new AssertionError("unreachable");
  }

  /** The attributes of {@code file}, whose dir is known plain, when it is a regular file itself (not a link). */
  private static BasicFileAttributes plainFile(Path file, String name) throws IOException, ConfinementException {
    if (name.equals("..") || name.equals(".")) {
      throw new ConfinementException("a shuffle file path climbs out of the executor's registered dirs");
    }
    BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (!a.isRegularFile()) {
      throw new ConfinementException("a shuffle file resolves outside the executor's registered dirs ("
          + (a.isSymbolicLink() ? "a symbolic link" : "not a plain file") + ")");
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
