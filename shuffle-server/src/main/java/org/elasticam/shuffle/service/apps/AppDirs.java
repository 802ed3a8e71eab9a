package org.elasticam.shuffle.service.apps;

import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The NodeManager's own directories of an application: {@code <local-dir>/usercache/<user>/appcache/<appId>}
 * on every local dir where it exists. An executor may register only dirs inside these.
 */
@FunctionalInterface
public interface AppDirs {

  /** The existing app-cache dirs of the application; empty when YARN has removed them all. */
  List<Path> appCacheDirs(String user, String appId);

  /** {@code usercache/<user>/appcache/<appId>}, relative to a NodeManager local dir. */
  static String relative(String user, String appId) {
    return "usercache/" + user + "/appcache/" + appId;
  }

  /** Over fixed NodeManager local dirs: the existing {@code relative(user, appId)} under each. */
  static AppDirs under(List<Path> localDirs) {
    return (user, appId) -> localDirs.stream()
        .map(d -> d.resolve(relative(user, appId)))
        .filter(p -> java.nio.file.Files.isDirectory(p))
        .collect(Collectors.collectingAndThen(Collectors.toList(), Collections::unmodifiableList));
  }
}
