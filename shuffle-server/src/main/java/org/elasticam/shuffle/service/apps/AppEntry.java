package org.elasticam.shuffle.service.apps;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One application the service knows: who runs it, its shuffle secret, whether it may be persisted,
 * and its executors' confined dirs. Recovered entries are marked until YARN initialises the
 * application again.
 */
public final class AppEntry {

  private final String appId;
  private final String user;
  private final byte[] secret;
  private final boolean persist;
  private final Map<String, List<Path>> executors = new ConcurrentHashMap<>();
  private volatile boolean recovered;

  AppEntry(String appId, String user, byte[] secret, boolean persist, boolean recovered) {
    this.appId = appId;
    this.user = user;
    this.secret = secret.clone();
    this.persist = persist;
    this.recovered = recovered;
  }

  public String appId() {
    return appId;
  }

  public String user() {
    return user;
  }

  /** The key requests are signed with; the caller must not change it. */
  public byte[] secret() {
    return secret;
  }

  public boolean persist() {
    return persist;
  }

  public boolean recovered() {
    return recovered;
  }

  void markInitialized() {
    recovered = false;
  }

  public Optional<List<Path>> executorDirs(String executorId) {
    return Optional.ofNullable(executors.get(executorId));
  }

  public Map<String, List<Path>> executors() {
    return Collections.unmodifiableMap(new HashMap<>(executors));
  }

  void putExecutor(String executorId, List<Path> dirs) {
    executors.put(executorId, Collections.unmodifiableList(new ArrayList<>(dirs)));
  }

  int executorCount() {
    return executors.size();
  }
}
