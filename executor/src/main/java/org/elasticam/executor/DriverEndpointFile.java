package org.elasticam.executor;

import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** The file in the staging directory where each AM attempt publishes its {@link DriverEndpoint}. */
public final class DriverEndpointFile {

  private DriverEndpointFile() {}

  /**
   * The endpoint the file names; empty while it does not exist or holds no endpoint yet (an AM
   * writes it whole and renames it into place, so a half-written one is never seen).
   */
  public static Optional<DriverEndpoint> read(URI file) throws IOException {
    Path p = new Path(file);
    FileSystem fs = p.getFileSystem(new Configuration());
    try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(p), StandardCharsets.UTF_8))) {
      // One line of host:port; a longer file is not ours.
      char[] buf = new char[300];
      int n = r.read(buf);
      if (n <= 0) {
        return Optional.empty();
      }
      return Optional.of(DriverEndpoint.parse(new String(buf, 0, n).lines().findFirst().orElse("")));
    } catch (FileNotFoundException e) {
      return Optional.empty();
    }
  }

}
