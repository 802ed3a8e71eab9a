package org.elasticam.am;

import org.elasticam.am.events.EventLog;
import org.elasticam.am.events.ExecutorSeconds;
import org.elasticam.am.loop.AmLoop;
import org.elasticam.time.Clock;

/**
 * What one attempt of the AM runs with once it has started: who it is, its secret, its event loop
 * and clock, the event log and what feeds it, and the cluster's nodes.
 */
record AmRun(AmEnvironment env, byte[] secret, Clock clock, AmLoop loop, EventLog events, AmEvents amEvents,
    ExecutorSeconds executorSeconds, AmClients.Nodes nodes) {

  String appId() {
    return env.appId();
  }

  int attempt() {
    return env.attempt().getAttemptId();
  }
}
