package org.elasticam.allocator.model;

/** Why an ask names the hosts it names; it decides when the ask is stale and how it is matched. */
public enum AskOrigin {
  /** Hosts come from the tasks' locality hints; stale once none of them is preferred any more. */
  LOCALITY,
  /** One host chosen by the spread placement; a hint, never stale, treated as any-host. */
  SPREAD,
  /** No hosts at all. */
  ANY_HOST;

  /** Whether the ask goes under the locality-free priority (the one that may carry a node label). */
  public boolean localityFree() {
    return this != LOCALITY;
  }
}
