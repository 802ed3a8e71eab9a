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

/**
 * Where the driver's control plane listens, as {@code host:port}. Each attempt of the AM writes
 * its own into a file in the application's staging directory, so that executors which outlived an
 * AM restart find the new one: executors have no credentials for the ResourceManager, but they do
 * for the staging file system.
 */
public record DriverEndpoint(String host, int port) {

  /** @throws IllegalArgumentException when the text is not host:port */
  public static DriverEndpoint parse(String text) {
    String t = text.trim();
    int colon = t.lastIndexOf(':');
    if (colon <= 0 || colon == t.length() - 1) {
      throw new IllegalArgumentException("expected host:port, got '" + t + "'");
    }
    int port;
    try {
      port = Integer.parseInt(t.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected host:port, got '" + t + "'");
    }
    if (port <= 0 || port > 65535) {
      throw new IllegalArgumentException("port out of range in '" + t + "'");
    }
    return new DriverEndpoint(t.substring(0, colon), port);
  }

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
      return Optional.of(parse(new String(buf, 0, n).lines().findFirst().orElse("")));
    } catch (FileNotFoundException e) {
      return Optional.empty();
    }
  }

  @Override
  public String toString() {
    return host + ":" + port;
  }
}
