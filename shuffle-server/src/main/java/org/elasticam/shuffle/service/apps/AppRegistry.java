package org.elasticam.shuffle.service.apps;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.elasticam.shuffle.protocol.SecretEnvelope;
import org.elasticam.shuffle.service.state.StateStore;
import org.elasticam.shuffle.service.state.StoredApp;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The applications the service serves, their secrets and their executors' dirs. Every change is
 * written to the state store before it takes effect here, so what a client was told is what a
 * restarted service recovers. Thread-safe: YARN's dispatcher and the event loops call in.
 */
public final class AppRegistry {

  private static final Logger LOG = LoggerFactory.getLogger(AppRegistry.class);

  private final Map<String, AppEntry> apps = new ConcurrentHashMap<>();
  private final StateStore store;
  private final AppDirs appDirs;
  private final List<Consumer<String>> stopListeners = new CopyOnWriteArrayList<>();

  public AppRegistry(StateStore store, AppDirs appDirs) {
    this.store = store;
    this.appDirs = appDirs;
    for (StoredApp a : store.recovered()) {
      AppEntry e = new AppEntry(a.appId(), a.user(), a.secret(), true, true);
      a.executors().forEach((id, dirs) ->
          e.putExecutor(id, dirs.stream().map(Paths::get).collect(Collectors.toList())));
      apps.put(a.appId(), e);
    }
  }

  /**
   * YARN's initializeApplication (once per container with our service data). The same secret again
   * changes nothing; a new one replaces it and keeps the executors.
   */
  public synchronized void initializeApplication(String appId, String user, SecretEnvelope envelope) throws IOException {
    AppEntry old = apps.get(appId);
    if (old != null && Arrays.equals(old.secret(), envelope.secret()) && old.user().equals(user)) {
      old.markInitialized();
      return;
    }
    if (envelope.persist()) {
      store.putApp(appId, user, envelope.secret());
    } else if (old != null && old.persist()) {
      store.removeApp(appId);
    }
    AppEntry e = new AppEntry(appId, user, envelope.secret(), envelope.persist(), false);
    if (old != null) {
      old.executors().forEach(e::putExecutor);
      if (envelope.persist()) {
        for (Map.Entry<String, List<Path>> x : old.executors().entrySet()) {
          store.putExecutor(appId, x.getKey(), strings(x.getValue()));
        }
      }
    }
    apps.put(appId, e);
    LOG.info("Application {} (user {}) initialized{}", appId, user, envelope.persist() ? "" : "; not persisted");
  }

  /** YARN's stopApplication: the app's secret and executors go; the entry, or empty when unknown. */
  public synchronized Optional<AppEntry> stopApplication(String appId) throws IOException {
    AppEntry e = apps.get(appId);
    if (e == null) {
      return Optional.empty();
    }
    if (e.persist()) {
      store.removeApp(appId);
    }
    apps.remove(appId);
    LOG.info("Application {} stopped: its secret and {} executors dropped", appId, e.executorCount());
    stopListeners.forEach(l -> l.accept(appId));
    return Optional.of(e);
  }

  /** {@code listener} is told the id of every application that stops (or is swept), after it went. */
  public void onStop(Consumer<String> listener) {
    stopListeners.add(listener);
  }

  public Optional<AppEntry> app(String appId) {
    return Optional.ofNullable(apps.get(appId));
  }

  /**
   * Registers an executor's dirs after confining them to the application's NodeManager dirs.
   *
   * @throws ConfinementException for a dir outside them (nothing is stored)
   * @throws IllegalStateException when the application is unknown
   */
  public synchronized List<Path> registerExecutor(String appId, String executorId, List<String> dirs)
      throws IOException, ConfinementException {
    AppEntry e = apps.get(appId);
    if (e == null) {
      throw new IllegalStateException("unknown application " + appId);
    }
    List<Path> confined = DirConfinement.confine(dirs, appDirs.appCacheDirs(e.user(), appId));
    if (e.persist()) {
      store.putExecutor(appId, executorId, strings(confined));
    }
    e.putExecutor(executorId, confined);
    LOG.info("Executor {} of {} registered {} dirs", executorId, appId, confined.size());
    return confined;
  }

  /**
   * Drops recovered applications YARN has not initialised again and whose app-cache dirs are all
   * gone: they ended while the NodeManager was down, and there is nothing left to serve.
   *
   * @return the ids dropped
   */
  public synchronized List<String> sweepEnded() throws IOException {
    List<String> dropped = new ArrayList<>();
    for (AppEntry e : new ArrayList<>(apps.values())) {
      if (e.recovered() && appDirs.appCacheDirs(e.user(), e.appId()).isEmpty()) {
        stopApplication(e.appId());
        dropped.add(e.appId());
      }
    }
    if (!dropped.isEmpty()) {
      LOG.info("Dropped {} recovered applications whose directories YARN removed: {}", dropped.size(), dropped);
    }
    return dropped;
  }

  public int applicationCount() {
    return apps.size();
  }

  public int executorCount() {
    return apps.values().stream().mapToInt(AppEntry::executorCount).sum();
  }

  private static List<String> strings(List<Path> paths) {
    return paths.stream().map(Path::toString).collect(Collectors.toList());
  }
}
