package org.elasticam.engine.scheduling;

/** How close a task ran to where it wanted to; names as the event log writes them. */
public enum Locality {
  NODE_LOCAL,
  RACK_LOCAL,
  ANY
}
