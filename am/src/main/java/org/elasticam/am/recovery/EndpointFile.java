package org.elasticam.am.recovery;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;

/**
 * Where this attempt's control plane listens, for executors that outlived an earlier attempt: they
 * lost the address they were launched with and cannot ask the ResourceManager for the new one.
 */
public final class EndpointFile {

  public static final String NAME = "am-endpoint";

  private EndpointFile() {}

  /** The file's qualified URI, as executors are told it. */
  public static String uri(Configuration conf, String stagingDir) throws IOException {
    return new StagingFiles(conf, stagingDir).path(NAME).toString();
  }

  public static void publish(Configuration conf, String stagingDir, String host, int port) throws IOException {
    new StagingFiles(conf, stagingDir).replace(NAME, (host + ":" + port + "\n").getBytes(StandardCharsets.UTF_8));
  }
}
