package org.elasticam.it;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** The shaded shuffle service jar the shuffle-aux-service module packaged. */
final class ShuffleJar {

  private ShuffleJar() {}

  static Path path() throws IOException {
    Path dir = Path.of("..", "shuffle-aux-service", "target");
    if (Files.isDirectory(dir)) {
      try (DirectoryStream<Path> d = Files.newDirectoryStream(dir, "elasticam-shuffle-*.jar")) {
        for (Path p : d) {
          if (!p.getFileName().toString().startsWith("elasticam-shuffle-aux-service")) {
            return p.toAbsolutePath().normalize();
          }
        }
      }
    }
    throw new IllegalStateException("the shuffle service jar is missing from shuffle-aux-service/target; build with"
        + " `mvn verify` (or install shuffle-aux-service)");
  }
}
