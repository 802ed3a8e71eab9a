package org.elasticam.shuffle.service.apps;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import org.elasticam.shuffle.layout.ShuffleLayout;

/**
 * Deletes one shuffle's files under an application's registered dirs. The service may run as a
 * more privileged user than the application, and the application owns these dirs: every step is
 * taken relative to an open directory without following links ({@code openat}/{@code unlinkat}
 * through {@link SecureDirectoryStream}), so a link planted anywhere below a registered dir, or a
 * dir swapped for one mid-way, makes it delete the link, never what it points to.
 */
public final class ShuffleRemoval {

  private ShuffleRemoval() {}

  /**
   * Deletes {@code <dir>/<root>/s<shuffleId>} under each of the (real, confined) {@code dirs};
   * returns the regular files deleted. Missing dirs are nothing to delete.
   *
   * @throws IOException when the platform cannot delete safely (no secure directory streams) or a
   *     deletion fails
   */
  public static long remove(List<Path> dirs, int shuffleId) throws IOException {
    Path relative = ShuffleLayout.shuffleDir(Paths.get(""), shuffleId);
    long deleted = 0;
    for (Path dir : dirs) {
      try (DirectoryStream<Path> base = Files.newDirectoryStream(dir)) {
        if (!(base instanceof SecureDirectoryStream)) {
          throw new IOException("this platform cannot delete below " + dir + " without following links");
        }
        SecureDirectoryStream<Path> at = (SecureDirectoryStream<Path>) base;
        deleted += removeChain(at, relative, 0);
      } catch (NoSuchFileException e) {
        // The registered dir is gone: the NodeManager cleaned the application up already.
      }
    }
    return deleted;
  }

  /** Descends {@code chain} from {@code at} without following links; deletes its last element whole. */
  private static long removeChain(SecureDirectoryStream<Path> at, Path chain, int i) throws IOException {
    Path name = chain.getName(i);
    if (i == chain.getNameCount() - 1) {
      return removeEntry(at, name);
    }
    try (SecureDirectoryStream<Path> next = at.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
      return removeChain(next, chain, i + 1);
    } catch (NoSuchFileException | NotDirectoryException e) {
      return 0;
    } catch (IOException e) {
      if (isLink(at, name)) {
        // Not ours to follow; the shuffle's files cannot be there.
        return 0;
      }
      throw e;
    }
  }

  /** Deletes the entry {@code name} of {@code at}: a file or link as such, a plain dir with all it holds. */
  private static long removeEntry(SecureDirectoryStream<Path> at, Path name) throws IOException {
    BasicFileAttributes a;
    try {
      a = at.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).readAttributes();
    } catch (NoSuchFileException e) {
      return 0;
    }
    if (!a.isDirectory()) {
      at.deleteFile(name);
      return a.isRegularFile() ? 1 : 0;
    }
    long deleted = 0;
    try (SecureDirectoryStream<Path> dir = at.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS)) {
      for (Path child : dir) {
        deleted += removeEntry(dir, child.getFileName());
      }
    }
    at.deleteDirectory(name);
    return deleted;
  }

  private static boolean isLink(SecureDirectoryStream<Path> at, Path name) {
    try {
      return at.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).readAttributes()
          .isSymbolicLink();
    } catch (IOException e) {
      return false;
    }
  }
}
