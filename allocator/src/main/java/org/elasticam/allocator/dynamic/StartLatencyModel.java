package org.elasticam.allocator.dynamic;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * How long an executor takes from request to registration, as a function of how many executors
 * were on their way with it: starts contend for the nodes' cores (and a job whose tasks prefer a
 * few hosts stacks its executors there), so the last of a burst of fifty waits far longer than one
 * asked for alone. A moving average of all starts mixes the two, and sized asks for one or two
 * executors as if each came with a burst.
 *
 * <p>Fitted by least squares, latency = a + b x (executors in flight when it was asked for, itself
 * included), over the newest {@link #SAMPLES} registrations; never below the fastest start seen.
 */
final class StartLatencyModel {

  static final int SAMPLES = 64;
  /** How far back the in-flight history reaches: starts slower than this count as asked for alone. */
  static final long HISTORY_MS = 120_000;

  private record Sample(double inFlight, double latencyMs) {}

  private final Deque<Sample> samples = new ArrayDeque<>();
  /** Executors asked for and not registered, as seen at the start of each tick. */
  private final TreeMap<Long, Integer> inFlightAt = new TreeMap<>();

  /** The executors asked for and not yet registered, at the start of a tick (before it asks for more). */
  void inFlight(long nowMs, int count) {
    inFlightAt.put(nowMs, count);
    inFlightAt.headMap(nowMs - HISTORY_MS).clear();
  }

  /**
   * An executor registered {@code latencyMs} after it was asked for. The executors in flight with
   * it are those the first tick after its request saw: that count includes the ones asked for in
   * the same round.
   */
  void registered(long nowMs, long latencyMs) {
    if (latencyMs <= 0) {
      return;
    }
    Map.Entry<Long, Integer> after = inFlightAt.higherEntry(nowMs - latencyMs);
    int inFlight = after != null ? after.getValue() : 1;
    samples.addLast(new Sample(Math.max(1, inFlight), latencyMs));
    if (samples.size() > SAMPLES) {
      samples.removeFirst();
    }
  }

  /** The latency of an executor that is one of {@code inFlight} on their way; empty before any start. */
  OptionalDouble predictMs(int inFlight) {
    if (samples.isEmpty()) {
      return OptionalDouble.empty();
    }
    double n = samples.size();
    double sx = 0;
    double sy = 0;
    double sxx = 0;
    double sxy = 0;
    double fastest = Double.MAX_VALUE;
    for (Sample s : samples) {
      sx += s.inFlight;
      sy += s.latencyMs;
      sxx += s.inFlight * s.inFlight;
      sxy += s.inFlight * s.latencyMs;
      fastest = Math.min(fastest, s.latencyMs);
    }
    double varX = sxx - sx * sx / n;
    if (n < 3 || varX < 1e-9) {
      return OptionalDouble.of(sy / n);
    }
    double slope = Math.max(0, (sxy - sx * sy / n) / varX);
    double intercept = (sy - slope * sx) / n;
    return OptionalDouble.of(Math.max(fastest, intercept + slope * inFlight));
  }
}
