package org.elasticam.report.events;

/** Where a run's events go: the AM's event log file, or a simulated run's. */
public interface EventWriter {

  /** Writes one event; {@code kv} alternates field names (from {@link EventFields}) and values. */
  void write(Event event, Object... kv);
}
