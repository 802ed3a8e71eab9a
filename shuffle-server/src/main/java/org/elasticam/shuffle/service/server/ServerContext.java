package org.elasticam.shuffle.service.server;

import java.util.concurrent.ExecutorService;
import java.util.function.LongSupplier;
import org.elasticam.shuffle.service.apps.AppRegistry;
import org.elasticam.time.Clock;

/** What every connection's handler shares. */
final class ServerContext {

  private final ServerSettings settings;
  private final AppRegistry registry;
  private final ShuffleStats stats;
  private final InFlightBudget budget;
  private final ExecutorService disk;
  private final Clock clock;
  private final LongSupplier nanos;
  private final boolean tls;
  private final OwnedFileOpener opener;
  private final IndexCache indexes;
  private final KeptFiles keptFiles;
  private final OpenDirs openDirs;

  ServerContext(ServerSettings settings, AppRegistry registry, ShuffleStats stats, InFlightBudget budget,
      ExecutorService disk, Clock clock, LongSupplier nanos, boolean tls, OwnedFileOpener opener, IndexCache indexes,
      KeptFiles keptFiles, OpenDirs openDirs) {
    this.settings = settings;
    this.registry = registry;
    this.stats = stats;
    this.budget = budget;
    this.disk = disk;
    this.clock = clock;
    this.nanos = nanos;
    this.tls = tls;
    this.opener = opener;
    this.indexes = indexes;
    this.keptFiles = keptFiles;
    this.openDirs = openDirs;
  }

  public ServerSettings settings() {
    return settings;
  }

  public AppRegistry registry() {
    return registry;
  }

  public ShuffleStats stats() {
    return stats;
  }

  public InFlightBudget budget() {
    return budget;
  }

  public ExecutorService disk() {
    return disk;
  }

  public Clock clock() {
    return clock;
  }

  public LongSupplier nanos() {
    return nanos;
  }

  public boolean tls() {
    return tls;
  }

  public OwnedFileOpener opener() {
    return opener;
  }

  public IndexCache indexes() {
    return indexes;
  }

  public KeptFiles keptFiles() {
    return keptFiles;
  }

  public OpenDirs openDirs() {
    return openDirs;
  }

}
