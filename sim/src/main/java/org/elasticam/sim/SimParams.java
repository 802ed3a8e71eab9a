package org.elasticam.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.elasticam.allocator.HeartbeatSchedule;
import org.elasticam.conf.ElasticConf;

/**
 * The simulated world: how fast the ResourceManager grants, how fast executors start, how big the
 * cluster is, and how often the AM heartbeats. Defaults and how they were calibrated: see
 * {@code package-info.java}.
 *
 * @param grantMs from a request reaching the ResourceManager until it can be granted
 * @param startMs from an executor's launch to its registration, when it starts alone on its host
 * @param startContention how much each executor already starting on the same host slows a start:
 *     the start takes {@code startMs * (1 + startContention * alreadyStarting)}
 * @param capacity the most containers the cluster gives the application at once; each host holds
 *     at most its share (capacity / hosts, rounded up)
 * @param heartbeat when the AM heartbeats: while no request is pending, and while some are
 * @param hosts how many NodeManagers: {@code host-01}, {@code host-02}, …
 * @param timeScale multiplies the trace's durations and gaps
 * @param oneMachine every host shares one machine's cores, so executors starting on any host slow
 *     each other (the embedded cluster: all its NodeManagers run on one machine); otherwise only
 *     those on the same host do
 */
record SimParams(long grantMs, long startMs, double startContention, int capacity, HeartbeatSchedule.Intervals heartbeat,
    int hosts, double timeScale, boolean oneMachine) {

  static final long DEFAULT_GRANT_MS = 200;
  static final long DEFAULT_START_MS = 1000;
  static final double DEFAULT_START_CONTENTION = 0.1;
  static final int DEFAULT_CAPACITY = 500;
  static final int DEFAULT_HOSTS = 20;
  /** The AM's heartbeat schedule with the configuration's defaults. */
  static final HeartbeatSchedule.Intervals DEFAULT_HEARTBEAT = HeartbeatSchedule.Intervals.of(ElasticConf.of(Map.of()));
  /** Every host's rack, as Hadoop's RackResolver names it on a cluster without a topology script. */
  static final String RACK = "/default-rack";

  SimParams {
    if (grantMs < 0 || startMs < 0 || !(startContention >= 0) || Double.isInfinite(startContention)) {
      throw new IllegalArgumentException("latencies and contention must be >= 0");
    }
    if (capacity < 1 || hosts < 1) {
      throw new IllegalArgumentException("capacity and hosts must be >= 1");
    }
    if (!(timeScale > 0) || Double.isInfinite(timeScale)) {
      throw new IllegalArgumentException("time scale must be a positive finite number");
    }
  }

  /**
   * The defaults, with the AM's default heartbeat schedule; {@link SimConfig} sets the
   * configuration's.
   */
  static SimParams defaults() {
    return new SimParams(DEFAULT_GRANT_MS, DEFAULT_START_MS, DEFAULT_START_CONTENTION, DEFAULT_CAPACITY,
        DEFAULT_HEARTBEAT, DEFAULT_HOSTS, 1.0, false);
  }

  /** The AM's heartbeat while no request is pending. */
  long heartbeatMs() {
    return heartbeat.intervalMs();
  }

  SimParams withGrantMs(long v) {
    return new SimParams(v, startMs, startContention, capacity, heartbeat, hosts, timeScale, oneMachine);
  }

  SimParams withStartMs(long v) {
    return new SimParams(grantMs, v, startContention, capacity, heartbeat, hosts, timeScale, oneMachine);
  }

  SimParams withStartContention(double v) {
    return new SimParams(grantMs, startMs, v, capacity, heartbeat, hosts, timeScale, oneMachine);
  }

  SimParams withCapacity(int v) {
    return new SimParams(grantMs, startMs, startContention, v, heartbeat, hosts, timeScale, oneMachine);
  }

  SimParams withHeartbeat(HeartbeatSchedule.Intervals v) {
    return new SimParams(grantMs, startMs, startContention, capacity, v, hosts, timeScale, oneMachine);
  }

  SimParams withHosts(int v) {
    return new SimParams(grantMs, startMs, startContention, capacity, heartbeat, v, timeScale, oneMachine);
  }

  SimParams withTimeScale(double v) {
    return new SimParams(grantMs, startMs, startContention, capacity, heartbeat, hosts, v, oneMachine);
  }

  SimParams withOneMachine(boolean v) {
    return new SimParams(grantMs, startMs, startContention, capacity, heartbeat, hosts, timeScale,
        v);
  }

  /** {@code host-01} … in order; names are zero-padded so that name order is number order. */
  List<String> hostNames() {
    int width = Math.max(2, String.valueOf(hosts).length());
    List<String> out = new ArrayList<>(hosts);
    for (int i = 1; i <= hosts; i++) {
      out.add(String.format(Locale.ROOT, "host-%0" + width + "d", i));
    }
    return out;
  }

  /** How long an executor takes to register when {@code alreadyStarting} others start on its host. */
  long startLatencyMs(int alreadyStarting) {
    return Math.round(startMs * (1 + startContention * alreadyStarting));
  }
}
