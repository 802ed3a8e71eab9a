package org.elasticam.shuffle.service;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.AuxiliaryLocalPathHandler;
import org.elasticam.shuffle.service.apps.AppDirs;

/**
 * An application's app-cache dirs as the NodeManager sees them: through its local path handler
 * (its healthy local dirs) when it gave one, else under {@code yarn.nodemanager.local-dirs}.
 */
final class NodeManagerDirs {

  private NodeManagerDirs() {}

  static AppDirs of(AuxiliaryLocalPathHandler handler, Configuration conf) {
    if (handler == null) {
      List<Path> local = new ArrayList<>();
      for (String d : conf.getTrimmedStrings(YarnConfiguration.NM_LOCAL_DIRS)) {
        local.add(Paths.get(d.startsWith("file:") ? java.net.URI.create(d).getPath() : d));
      }
      return AppDirs.under(local);
    }
    return (user, appId) -> {
      List<Path> out = new ArrayList<>();
      try {
        for (org.apache.hadoop.fs.Path p : handler.getAllLocalPathsForRead(AppDirs.relative(user, appId))) {
          Path dir = Paths.get(p.toUri().getPath());
          if (Files.isDirectory(dir)) {
            out.add(dir);
          }
        }
      } catch (IOException e) {
        // None found on any healthy dir.
      }
      return out;
    };
  }
}
