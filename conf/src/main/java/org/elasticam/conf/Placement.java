package org.elasticam.conf;

/** Where container requests without locality should land ({@code elasticam.yarn.placement}). */
public enum Placement {
  /** Prefer nodes holding the fewest of our executors (Spark standalone's spreadOut). */
  SPREAD,
  /** Prefer nodes that already hold our executors. */
  PACK
}
