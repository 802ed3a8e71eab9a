package org.elasticam.shuffle.service;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import org.elasticam.shuffle.layout.ShuffleLayout;
import org.elasticam.shuffle.service.apps.AppEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Deleting a stopped application's shuffle files (only with elasticam.shuffle.deleteOnStop). */
final class ShuffleFiles {

  private static final Logger LOG = LoggerFactory.getLogger(ShuffleFiles.class);

  private ShuffleFiles() {}

  /** Removes {@code <dir>/elasticam-shuffle} under every registered dir; symlinks are removed, never followed. */
  static void delete(AppEntry app) {
    for (List<Path> dirs : app.executors().values()) {
      for (Path dir : dirs) {
        Path root = dir.resolve(ShuffleLayout.ROOT);
        try {
          if (Files.isDirectory(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            Files.walkFileTree(root, new Deleter());
          }
        } catch (IOException e) {
          LOG.warn("Could not delete {} of stopped application {}: {}", root, app.appId(), e.toString());
        }
      }
    }
  }

  private static final class Deleter extends SimpleFileVisitor<Path> {
    @Override
    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
      Files.deleteIfExists(file);
      return FileVisitResult.CONTINUE;
    }

    @Override
    public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
      Files.deleteIfExists(dir);
      return FileVisitResult.CONTINUE;
    }
  }
}
