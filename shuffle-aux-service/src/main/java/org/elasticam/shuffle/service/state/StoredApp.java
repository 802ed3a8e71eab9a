package org.elasticam.shuffle.service.state;

import java.util.List;
import java.util.Map;

/**
 * An application as the store keeps it: its user, shuffle secret and its executors' registered
 * (already confined, real) dirs.
 */
public record StoredApp(String appId, String user, byte[] secret, Map<String, List<String>> executors) {

  public StoredApp {
    executors = Map.copyOf(executors);
  }

  @Override
  public String toString() {
    return "StoredApp[" + appId + ", user " + user + ", " + executors.size() + " executors]";
  }
}
