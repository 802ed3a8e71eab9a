package org.elasticam.sim.streaming;

/**
 * The simulated cluster a streaming run asks for executors: the same quantities, defaults and start
 * model as the batch simulator's world ({@code SimParams}; calibration in the {@code org.elasticam.sim}
 * package documentation), handed over by {@code SimulateMain} so that both stay one definition.
 *
 * @param grantMs from a request reaching the ResourceManager until it can be granted
 * @param startMs from an executor's launch to its registration, alone on its host
 * @param startContention each executor already starting on the host makes a start take
 *     {@code startMs × (1 + startContention × alreadyStarting)}
 * @param capacity the most containers the application holds at once
 * @param hosts NodeManagers; grants go round-robin over them
 * @param oneMachine every host shares one machine's cores, so all starts contend
 * @param heartbeatMs the AM heartbeat while no request is pending
 * @param initialIntervalMs the first heartbeat interval while requests are pending, doubling
 */
public record StreamingWorld(long grantMs, long startMs, double startContention, int capacity, int hosts,
    boolean oneMachine, long heartbeatMs, long initialIntervalMs) {

  public StreamingWorld {
    if (grantMs < 0 || startMs < 0 || !(startContention >= 0) || Double.isInfinite(startContention)
        || capacity < 1 || hosts < 1 || heartbeatMs < 1 || initialIntervalMs < 1) {
      throw new IllegalArgumentException("inconsistent simulated world: " + this);
    }
  }

  StreamingWorld withGrantMs(long v) {
    return new StreamingWorld(v, startMs, startContention, capacity, hosts, oneMachine, heartbeatMs,
        initialIntervalMs);
  }

  StreamingWorld withStartMs(long v) {
    return new StreamingWorld(grantMs, v, startContention, capacity, hosts, oneMachine, heartbeatMs,
        initialIntervalMs);
  }

  StreamingWorld withStartContention(double v) {
    return new StreamingWorld(grantMs, startMs, v, capacity, hosts, oneMachine, heartbeatMs, initialIntervalMs);
  }

  StreamingWorld withCapacity(int v) {
    return new StreamingWorld(grantMs, startMs, startContention, v, hosts, oneMachine, heartbeatMs, initialIntervalMs);
  }

  StreamingWorld withHosts(int v) {
    return new StreamingWorld(grantMs, startMs, startContention, capacity, v, oneMachine, heartbeatMs,
        initialIntervalMs);
  }

  StreamingWorld withOneMachine(boolean v) {
    return new StreamingWorld(grantMs, startMs, startContention, capacity, hosts, v, heartbeatMs, initialIntervalMs);
  }

  StreamingWorld withHeartbeat(long heartbeat, long initial) {
    return new StreamingWorld(grantMs, startMs, startContention, capacity, hosts, oneMachine, heartbeat,
        Math.min(initial, heartbeat));
  }

  /**
   * From a request to its grant reaching the AM. A target change makes the AM heartbeat at once and
   * then after the initial interval, doubling up to the heartbeat interval, and a grant is delivered
   * with the first heartbeat at least {@code grantMs} after the ask: with 200 ms for both, 200 ms.
   */
  long grantDelayMs() {
    long beat = 0;
    long sleep = initialIntervalMs;
    while (beat < grantMs) {
      beat += Math.min(sleep, heartbeatMs);
      sleep = Math.min(sleep * 2, heartbeatMs);
    }
    return beat;
  }

  /** How long an executor takes to register when {@code alreadyStarting} others start where it does. */
  long startLatencyMs(int alreadyStarting) {
    return Math.round(startMs * (1 + startContention * alreadyStarting));
  }
}
