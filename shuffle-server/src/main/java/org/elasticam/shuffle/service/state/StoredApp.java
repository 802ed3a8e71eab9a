package org.elasticam.shuffle.service.state;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An application as the store keeps it: its user, shuffle secret and its executors' registered
 * (already confined, real) dirs.
 */
public final class StoredApp {

  private final String appId;
  private final String user;
  private final byte[] secret;
  private final Map<String, List<String>> executors;

  public StoredApp(String appId, String user, byte[] secret, Map<String, List<String>> executors) {
    executors = Collections.unmodifiableMap(new LinkedHashMap<>(executors));
    this.appId = appId;
    this.user = user;
    this.secret = secret;
    this.executors = executors;
  }

  public String appId() {
    return appId;
  }

  public String user() {
    return user;
  }

  public byte[] secret() {
    return secret;
  }

  public Map<String, List<String>> executors() {
    return executors;
  }

  @Override
  public String toString() {
    return "StoredApp[" + appId + ", user " + user + ", " + executors.size() + " executors]";
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof StoredApp)) {
      return false;
    }
    StoredApp other = (StoredApp) o;
    return Objects.equals(appId, other.appId) && Objects.equals(user, other.user)
        && Objects.equals(secret, other.secret) && Objects.equals(executors, other.executors);
  }

  @Override
  public int hashCode() {
    int h = Objects.hashCode(appId);
    h = 31 * h + Objects.hashCode(user);
    h = 31 * h + Objects.hashCode(secret);
    return 31 * h + Objects.hashCode(executors);
  }
}
