package org.elasticam.engine.job;

import java.util.Set;

/**
 * Deletes a shuffle's files where they are served: the NodeManagers' shuffle services, or the
 * executors' own servers. Called on the event loop; must not block it.
 */
public interface ShuffleCleaner {

  /** Where a shuffle's output is served from: a node's service, or one executor's own server. */
  record Server(String host, int port) {}

  /** No stage will read {@code shuffleId} again: delete its files at each of {@code servers}. */
  void remove(int shuffleId, Set<Server> servers);

  /** For drivers whose jobs have no shuffle files to delete (tests of other behaviour). */
  ShuffleCleaner NONE = (shuffleId, servers) -> { };
}
