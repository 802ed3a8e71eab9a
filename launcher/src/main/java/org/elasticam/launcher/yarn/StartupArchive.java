package org.elasticam.launcher.yarn;

import java.util.Optional;

/**
 * Where executors on a node find the start-up archive (a JDK class-data-sharing archive of the
 * classes an executor loads until it runs its first task) and how they tell one build of our jar
 * from another. The archive is made on each node, by the node's own Java, from the jar the node
 * localized: one made anywhere else could match neither (the JVM refuses an archive from another
 * Java build, or one whose jar has another size or modification time, and a localized jar gets
 * the time of its download).
 *
 * <p>Executors look in {@code <base>/<jarDigest>-<cksum of JAVA_HOME>}: one directory per build of
 * the jar and Java home, shared by every application of the user on that node.
 *
 * @param baseDir the directory on the nodes; empty: {@code elasticam-startup} in the NodeManager's
 *     cache directory of the application's user (beside the applications' own directories)
 * @param jarDigest hex digest of our jar's content: equal for every application submitted with it
 * @param appJar the jar's name in the container's working directory, copied into the archive's directory
 */
public record StartupArchive(Optional<String> baseDir, String jarDigest, String appJar) {

  public StartupArchive {
    if (!jarDigest.matches("[0-9a-f]{8,64}")) {
      throw new IllegalArgumentException("a jar digest is hex, got '" + jarDigest + "'");
    }
    if (!appJar.matches("[A-Za-z0-9_.-]+")) {
      throw new IllegalArgumentException("the jar is a plain file name in the container's directory, got '" + appJar + "'");
    }
  }
}
