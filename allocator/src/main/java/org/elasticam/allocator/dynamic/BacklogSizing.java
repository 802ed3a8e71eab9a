package org.elasticam.allocator.dynamic;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How many executors the waiting tasks are worth, from what the elastic policy has measured of
 * this job: per stage a task duration (or none yet), the executors' start latency L, and the bar a
 * new executor must clear ({@code worthLatencies} x L of work once it arrives).
 *
 * <p>Two kinds of stages are sized differently:
 *
 * <ul>
 *   <li><b>Measured</b> (a task finished, or one runs and is younger than L): the pending work is
 *       laid over the slots we have — busy ones free as their tasks end, requested ones arrive
 *       after L, tasks are not divided — and a new executor is worth asking for when it would
 *       still find at least the bar of that work when it arrives.</li>
 *   <li><b>Long and unmeasured</b> (its oldest task has run at least L and none finished): every
 *       task of the stage lasts at least L as far as we can tell, so each waiting task that no slot
 *       frees for within L is worth an executor of its own, asked for at once. A stage nothing of
 *       which has run yet gets one executor at once when no slot frees for it within L, so that it
 *       is measured soon instead of waiting behind other stages.</li>
 * </ul>
 *
 * <p>Idle slots are capacity, but while tasks wait beside them (delay scheduling holds those tasks
 * for their preferred hosts) only from when the locality wait releases the tasks to them.
 */
final class BacklogSizing {

  /** The executors we have: registered, and asked for (the target) or arriving. */
  record Fleet(int registered, int target, int slotsPerExecutor) {
    int have() {
      return Math.max(target, registered);
    }
  }

  private final TaskEstimates estimates;
  private final long localityWaitMs;

  BacklogSizing(TaskEstimates estimates, long localityWaitMs) {
    this.estimates = estimates;
    this.localityWaitMs = localityWaitMs;
  }

  /** The executors the backlog is worth: at least what we have, at most unbounded (the caller caps). */
  int worth(List<WorkloadTracker.StageLoad> loads, Fleet fleet, double latencyMs, double worthLatencies,
      long nowMs) {
    // Each stage's duration once: it is a Kaplan-Meier estimate over up to thousands of tasks.
    List<Optional<TaskEstimates.Duration>> durations = new ArrayList<>(loads.size());
    for (WorkloadTracker.StageLoad load : loads) {
      durations.add(estimates.taskMs(load.stageId(), load.attempt(), nowMs));
    }
    int measured = measuredWorth(loads, durations, fleet, latencyMs, worthLatencies, nowMs);
    long unmeasured = fleet.have() + unmeasuredExtra(loads, durations, fleet, latencyMs, nowMs);
    return (int) Math.min(Integer.MAX_VALUE, Math.max(measured, unmeasured));
  }

  /**
   * The measured stages' pending work over the slots we have (busy ones free as their tasks end,
   * requested ones arrive after L): new executors each finding at least the bar of work.
   */
  private int measuredWorth(List<WorkloadTracker.StageLoad> loads, List<Optional<TaskEstimates.Duration>> durations,
      Fleet fleet, double latencyMs, double worthLatencies, long nowMs) {
    double horizon = (1 + worthLatencies) * latencyMs;
    double pendingWork = 0;
    double freeBeforeHorizon = 0;
    for (int i = 0; i < loads.size(); i++) {
      WorkloadTracker.StageLoad load = loads.get(i);
      Optional<TaskEstimates.Duration> d = durations.get(i);
      if (d.isEmpty() || isLongUnmeasured(d.get(), latencyMs)) {
        continue;
      }
      pendingWork += load.pending() * Math.max(1, d.get().ms());
      freeBeforeHorizon += estimates.freeBefore(load.stageId(), load.attempt(), d.get(), horizon, nowMs);
    }
    double slots = fleet.slotsPerExecutor();
    double idleSlots = idleSlots(fleet);
    double comingSlots = Math.max(0, (fleet.have() - fleet.registered()) * slots);
    freeBeforeHorizon += idleSlots * Math.max(0, horizon - idleSlotsFreeAfterMs(loads, idleSlots))
        + comingSlots * (horizon - latencyMs);
    if (pendingWork <= freeBeforeHorizon) {
      return fleet.have();
    }
    double extra = Math.floor((pendingWork - freeBeforeHorizon) / (slots * worthLatencies * latencyMs));
    return (int) Math.min(Integer.MAX_VALUE, fleet.have() + extra);
  }

  /**
   * Executors beyond those we have for the stages we cannot size by measurement: one per waiting
   * task of a long unmeasured stage, and one per stage nothing of which has run, less the slots
   * that free within L and that the measured stages' waiting tasks do not take first.
   */
  private long unmeasuredExtra(List<WorkloadTracker.StageLoad> loads, List<Optional<TaskEstimates.Duration>> durations,
      Fleet fleet, double latencyMs, long nowMs) {
    long wanted = 0;
    long measuredPending = 0;
    double freeWithinLatency = 0;
    for (int i = 0; i < loads.size(); i++) {
      WorkloadTracker.StageLoad load = loads.get(i);
      Optional<TaskEstimates.Duration> d = durations.get(i);
      if (d.isEmpty()) {
        wanted += load.pending() > 0 ? 1 : 0;
      } else if (isLongUnmeasured(d.get(), latencyMs)) {
        wanted += load.pending();
      } else {
        measuredPending += load.pending();
        freeWithinLatency += estimates.endingWithin(load.stageId(), load.attempt(), d.get(), latencyMs, nowMs);
      }
    }
    if (wanted == 0) {
      return 0;
    }
    double slots = fleet.slotsPerExecutor();
    double idleSlots = idleSlots(fleet);
    freeWithinLatency += (idleSlotsFreeAfterMs(loads, idleSlots) <= latencyMs ? idleSlots : 0)
        + Math.max(0, (fleet.have() - fleet.registered()) * slots);
    double spare = Math.max(0, freeWithinLatency - measuredPending);
    return (long) Math.ceil(Math.max(0, wanted - spare) / slots);
  }

  /** Slots of registered executors that run no task. */
  private double idleSlots(Fleet fleet) {
    return Math.max(0, fleet.registered() * (double) fleet.slotsPerExecutor() - estimates.running());
  }

  /**
   * From when the waiting tasks can use the idle slots: at once, unless tasks already wait beside
   * them — the task scheduler offers every idle slot at once, so a task that still waits is held
   * back for its preferred hosts by delay scheduling, and takes an idle slot once its locality wait
   * runs out. Counting those slots as no capacity at all (an earlier rule) asked for executors on
   * the preferred hosts that arrived after the wait had handed the tasks to the idle ones.
   */
  private double idleSlotsFreeAfterMs(List<WorkloadTracker.StageLoad> loads, double idleSlots) {
    return idleSlots >= 1 && loads.stream().anyMatch(l -> l.pending() > 0) ? localityWaitMs : 0;
  }

  /** No task of the stage finished, and its oldest has run for at least L: its tasks are long. */
  private static boolean isLongUnmeasured(TaskEstimates.Duration d, double latencyMs) {
    return !d.measured() && d.ms() >= 2 * latencyMs;
  }
}
