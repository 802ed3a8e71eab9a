package org.elasticam.bench.shuffle;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.util.DiskChecker.DiskErrorException;
import org.apache.hadoop.yarn.server.api.AuxiliaryLocalPathHandler;

/**
 * What a NodeManager hands its auxiliary services to find files under its local dirs (its
 * {@code LocalDirsHandlerService}), over the benchmark's local dirs: a relative path resolves under
 * the first dir that has it, and a missing one is a {@link DiskErrorException}, as there.
 */
final class NodeManagerPaths implements AuxiliaryLocalPathHandler {

  private final List<java.nio.file.Path> localDirs;

  NodeManagerPaths(List<java.nio.file.Path> localDirs) {
    this.localDirs = List.copyOf(localDirs);
  }

  @Override
  public Path getLocalPathForRead(String path) throws IOException {
    for (java.nio.file.Path d : localDirs) {
      java.nio.file.Path p = d.resolve(path);
      if (Files.exists(p)) {
        return new Path(p.toString());
      }
    }
    throw new DiskErrorException("Could not find " + path + " in any of the directories");
  }

  @Override
  public Path getLocalPathForWrite(String path) {
    return new Path(localDirs.get(0).resolve(path).toString());
  }

  @Override
  public Path getLocalPathForWrite(String path, long size) {
    return getLocalPathForWrite(path);
  }

  @Override
  public Iterable<Path> getAllLocalPathsForRead(String path) {
    List<Path> out = new ArrayList<>();
    for (java.nio.file.Path d : localDirs) {
      java.nio.file.Path p = d.resolve(path);
      if (Files.exists(p)) {
        out.add(new Path(p.toString()));
      }
    }
    return out;
  }
}
