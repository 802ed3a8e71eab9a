package org.elasticam.allocator.ledger;

import org.elasticam.allocator.model.ContainerRef;
import org.elasticam.allocator.model.ExecutorId;

/**
 * A container we hold, from grant to completion.
 *
 * @param grantedAtMs when the grant reached us: executor-seconds count from here
 * @param askedAtMs when the request it satisfied was sent: start latency counts from here
 */
public record HeldContainer(ContainerRef container, ExecutorId executor, String host, State state, long grantedAtMs,
    long askedAtMs) {

  /** Where a held container is in its life. */
  public enum State {
    /** Granted, launch under way on the launcher pool. */
    STARTING,
    /** The NodeManager started the executor's process. */
    RUNNING,
    /** We released it and wait for YARN to report it completed. */
    RELEASING
  }

  HeldContainer withState(State next) {
    return new HeldContainer(container, executor, host, next, grantedAtMs, askedAtMs);
  }
}
