package org.elasticam.sim;

import static org.elasticam.report.events.EventFields.PENDING_TASKS;
import static org.elasticam.report.events.EventFields.POLICY;
import static org.elasticam.report.events.EventFields.PREVIOUS;
import static org.elasticam.report.events.EventFields.REASON;
import static org.elasticam.report.events.EventFields.RUNNING_TASKS;
import static org.elasticam.report.events.EventFields.TARGET;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.elasticam.allocator.dynamic.AllocationPolicy;
import org.elasticam.allocator.dynamic.PolicyDecision;
import org.elasticam.allocator.model.ExecutorId;
import org.elasticam.allocator.model.LocalityHints;
import org.elasticam.report.events.Event;

/**
 * Carries a dynamic-allocation policy's decisions to the allocator, as the AM does: a new target
 * goes to {@code requestTotalExecutors} with the locality hints (and wakes the heartbeat when it
 * changed); an executor to remove first stops getting tasks, then is killed with reason
 * {@code idle}. Hints are also re-sent when they change under an unchanged target, as the AM's
 * driver re-sends them on every stage submission and completion.
 */
final class PolicyLink {

  /** The release reason of an idle kill; the event log's {@code executor_removed} reason. */
  static final String IDLE = "idle";

  /** The driver's part in a removal. */
  interface Driver {
    void stopOffering(String executorId);

    int pendingTasks();

    int runningTasks();
  }

  private final AllocationPolicy policy;
  private final SimAllocator allocator;
  private final SimHeartbeater heartbeat;
  private final EventLogSink log;
  private final RunMetrics metrics;
  private LocalityHints sentHints = LocalityHints.NONE;

  PolicyLink(AllocationPolicy policy, SimAllocator allocator, SimHeartbeater heartbeat, EventLogSink log,
      RunMetrics metrics) {
    this.policy = policy;
    this.allocator = allocator;
    this.heartbeat = heartbeat;
    this.log = log;
    this.metrics = metrics;
  }

  AllocationPolicy policy() {
    return policy;
  }

  /** The starting target (Spark's initial executors), before any stage. */
  void start(Driver driver) {
    int target = policy.target();
    log.write(Event.TARGET_CHANGED, TARGET, target, PREVIOUS, 0, REASON, "initial executors", PENDING_TASKS,
        driver.pendingTasks(), RUNNING_TASKS, driver.runningTasks(), POLICY, policy.name());
    if (allocator.requestTotalExecutors(target, LocalityHints.NONE)) {
      heartbeat.wakeUp();
    }
  }

  /** One policy tick and what it decided. */
  void tick(long nowMs, Driver driver) {
    PolicyDecision d = policy.tick(nowMs);
    LocalityHints hints = hints(d);
    if (d.targetChanged()) {
      log.write(Event.TARGET_CHANGED, TARGET, d.target(), PREVIOUS, d.previousTarget(), REASON, d.reason(),
          PENDING_TASKS, d.pendingTasks(), RUNNING_TASKS, d.runningTasks(), POLICY, policy.name());
    }
    if (d.targetChanged() || !hints.equals(sentHints)) {
      sentHints = hints;
      if (allocator.requestTotalExecutors(d.target(), hints)) {
        heartbeat.wakeUp();
      }
    }
    for (String id : d.remove()) {
      driver.stopOffering(id);
      if (allocator.killExecutor(ExecutorId.parse(id), IDLE)) {
        metrics.executorKilled();
      }
    }
  }

  /** Hosts in name order: the policy's maps have no stable order, and placement breaks ties by it. */
  private static LocalityHints hints(PolicyDecision d) {
    Map<String, Integer> sorted = new LinkedHashMap<>(new TreeMap<>(d.hostToLocalTaskCount()));
    return new LocalityHints(d.localityAwareTasks(), sorted);
  }
}
