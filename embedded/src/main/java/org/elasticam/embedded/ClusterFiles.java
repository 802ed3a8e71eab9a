package org.elasticam.embedded;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.elasticam.embedded.EmbeddedCluster.Settings;

/**
 * The work dir's layout: {@code conf/} (client configuration), {@code tmp/} (hadoop.tmp.dir),
 * {@code nm-<i>/{local,logs,recovery}} per NodeManager, and {@code cluster.log}.
 */
final class ClusterFiles {

  private ClusterFiles() {}

  static Path confDir(Settings s) {
    return s.workDir().resolve("conf");
  }

  static Path tmpDir(Settings s) {
    return s.workDir().resolve("tmp");
  }

  static Path clusterLog(Settings s) {
    return s.workDir().resolve("cluster.log");
  }

  static Path nodeManagerDir(Settings s, int i) {
    return s.workDir().resolve("nm-" + i);
  }

  /**
   * A fresh start: recovery state, containers and configuration of an earlier cluster in the same
   * work dir would be recovered against a ResourceManager that never knew them. Other files stay.
   */
  static void prepare(Settings s) throws IOException {
    Files.createDirectories(s.workDir());
    try (Stream<Path> old = Files.list(s.workDir())) {
      for (Path p : (Iterable<Path>) old::iterator) {
        String name = p.getFileName().toString();
        if (name.matches("nm-\\d+") || name.equals("conf") || name.equals("tmp")) {
          deleteRecursively(p);
        }
      }
    }
    Files.createDirectories(confDir(s));
    Files.createDirectories(tmpDir(s));
    for (int i = 0; i < s.nodeManagers(); i++) {
      for (String sub : new String[] {"local", "logs", "recovery"}) {
        Files.createDirectories(nodeManagerDir(s, i).resolve(sub));
      }
    }
  }

  /** {@code yarn.*} keys into yarn-site.xml, the rest (hadoop.*, fs.*) into core-site.xml. */
  static void writeClientConf(Configuration site, Path dir) throws IOException {
    Configuration yarn = new Configuration(false);
    Configuration core = new Configuration(false);
    for (Map.Entry<String, String> e : site) {
      (e.getKey().startsWith("yarn.") ? yarn : core).set(e.getKey(), e.getValue());
    }
    write(yarn, dir.resolve("yarn-site.xml"));
    write(core, dir.resolve("core-site.xml"));
  }

  private static void write(Configuration conf, Path file) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (OutputStream out = Files.newOutputStream(tmp)) {
      conf.writeXml(out);
    }
    // A container reading the dir sees the old file or the new one, never half of one.
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  private static void deleteRecursively(Path root) throws IOException {
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
