package org.elasticam.am;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.elasticam.engine.job.ShuffleCleaner;
import org.elasticam.shuffle.client.ClientSettings;
import org.elasticam.shuffle.client.ServiceAddress;
import org.elasticam.shuffle.client.ShuffleClient;
import org.elasticam.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks each server of a shuffle (a node's service or an executor's own server) to delete its
 * files, with the application's shuffle key, off the event loop. A server that cannot be reached
 * keeps the files until the application ends and the NodeManager removes its directories.
 *
 * <p>The last stage's shuffle is deleted as the job ends, while its executors are released: a
 * removal still failing or waiting to retry when the application ends is left to that end, with
 * no warning, as that end removes the files anyway.
 */
final class ServiceShuffleCleaner implements ShuffleCleaner, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ServiceShuffleCleaner.class);

  private final ShuffleClient client;
  /** Set when the application ends: a removal that fails from then on is not worth a warning. */
  private volatile boolean ending;
  private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "shuffle-cleaner");
    t.setDaemon(true);
    return t;
  });

  ServiceShuffleCleaner(String appId, byte[] shuffleSecret, ClientSettings settings, Clock clock) {
    this.client = new ShuffleClient(appId, shuffleSecret, settings, clock);
  }

  @Override
  public void remove(int shuffleId, Set<Server> servers) {
    thread.execute(() -> {
      for (Server s : servers) {
        try {
          client.removeShuffle(ServiceAddress.plain(s.host(), s.port()), shuffleId);
        } catch (IOException | RuntimeException e) {
          if (ending) {
            LOG.debug("Shuffle {} at {}:{} is left to the application's end: {}", shuffleId, s.host(), s.port(),
                e.toString());
          } else {
            LOG.warn("Could not delete shuffle {} at {}:{} (its files stay until the application ends): {}",
                shuffleId, s.host(), s.port(), e.toString());
          }
        }
      }
    });
  }

  @Override
  public void close() {
    ending = true;
    thread.shutdownNow();
    client.close();
  }
}
