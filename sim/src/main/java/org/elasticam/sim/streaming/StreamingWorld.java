package org.elasticam.sim.streaming;

import org.elasticam.allocator.HeartbeatSchedule;

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
 * @param heartbeat when the AM heartbeats, the same schedule as the AM's
 */
public record StreamingWorld(long grantMs, long startMs, double startContention, int capacity, int hosts,
    boolean oneMachine, HeartbeatSchedule.Intervals heartbeat) {

  public StreamingWorld {
    if (grantMs < 0 || startMs < 0 || !(startContention >= 0) || Double.isInfinite(startContention)
        || capacity < 1 || hosts < 1 || heartbeat == null) {
      throw new IllegalArgumentException("inconsistent simulated world: " + this);
    }
  }

  StreamingWorld withGrantMs(long v) {
    return new StreamingWorld(v, startMs, startContention, capacity, hosts, oneMachine, heartbeat);
  }

  StreamingWorld withStartMs(long v) {
    return new StreamingWorld(grantMs, v, startContention, capacity, hosts, oneMachine, heartbeat);
  }

  StreamingWorld withStartContention(double v) {
    return new StreamingWorld(grantMs, startMs, v, capacity, hosts, oneMachine, heartbeat);
  }

  StreamingWorld withCapacity(int v) {
    return new StreamingWorld(grantMs, startMs, startContention, v, hosts, oneMachine, heartbeat);
  }

  StreamingWorld withHosts(int v) {
    return new StreamingWorld(grantMs, startMs, startContention, capacity, v, oneMachine, heartbeat);
  }

  StreamingWorld withOneMachine(boolean v) {
    return new StreamingWorld(grantMs, startMs, startContention, capacity, hosts, v, heartbeat);
  }

  StreamingWorld withHeartbeat(HeartbeatSchedule.Intervals v) {
    return new StreamingWorld(grantMs, startMs, startContention, capacity, hosts, oneMachine, v);
  }

  /**
   * From a request to its grant reaching the AM: a target change makes the AM heartbeat at once and
   * then on its schedule, and the grant comes with the first heartbeat at least {@code grantMs}
   * after the ask.
   */
  long grantDelayMs() {
    return HeartbeatSchedule.firstHeartbeatAtOrAfter(heartbeat, grantMs);
  }

  /** How long an executor takes to register when {@code alreadyStarting} others start where it does. */
  long startLatencyMs(int alreadyStarting) {
    return Math.round(startMs * (1 + startContention * alreadyStarting));
  }
}
