package org.elasticam.executor;

/**
 * Where the driver's control plane listens, as {@code host:port}. Each attempt of the AM writes
 * its own into a file in the application's staging directory, so that executors which outlived an
 * AM restart find the new one: executors have no credentials for the ResourceManager, but they do
 * for the staging file system ({@link DriverEndpointFile}). Nothing of Hadoop's here: an executor
 * parses its first endpoint before it has the cluster's classpath ({@link StartupClassPath}).
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

  @Override
  public String toString() {
    return host + ":" + port;
  }
}
