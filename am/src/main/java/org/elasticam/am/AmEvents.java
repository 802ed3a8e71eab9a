package org.elasticam.am;

import static org.elasticam.report.events.EventFields.CONTAINER_ID;
import static org.elasticam.report.events.EventFields.COUNT;
import static org.elasticam.report.events.EventFields.COUNTED_AS_FAILURE;
import static org.elasticam.report.events.EventFields.EXECUTORS;
import static org.elasticam.report.events.EventFields.EXECUTOR_ID;
import static org.elasticam.report.events.EventFields.EXIT_STATUS;
import static org.elasticam.report.events.EventFields.EXIT_STATUS_NAME;
import static org.elasticam.report.events.EventFields.HOST;
import static org.elasticam.report.events.EventFields.MATCHED;
import static org.elasticam.report.events.EventFields.MESSAGE;
import static org.elasticam.report.events.EventFields.MORE;
import static org.elasticam.report.events.EventFields.NODES;
import static org.elasticam.report.events.EventFields.RACKS;
import static org.elasticam.report.events.EventFields.REASON;
import static org.elasticam.report.events.EventFields.STATE;
import static org.elasticam.report.events.EventFields.TIMEOUT_S;
import static org.elasticam.report.events.EventFields.UNTIL_TS;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.elasticam.allocator.exit.ExitStatus;
import org.elasticam.allocator.model.ExecutorId;
import org.elasticam.allocator.plan.Action.ContainerCompleted;
import org.elasticam.engine.job.JobEngine;
import org.elasticam.engine.job.Outcome;
import org.elasticam.am.events.EventLog;
import org.elasticam.am.events.ExecutorSeconds;
import org.elasticam.am.metrics.AmMetrics;
import org.elasticam.am.yarn.AllocationEvents;
import org.elasticam.time.Clock;
import org.elasticam.report.events.Event;

/**
 * Where the allocator's doings go: the event log, the executor-seconds count, and the driver (an
 * executor whose container completed is gone; too many failures end the job).
 */
final class AmEvents implements AllocationEvents {

  private final EventLog log;
  private final ExecutorSeconds executorSeconds;
  private final Clock clock;
  private final AmMetrics metrics;
  private final Map<String, String> releaseReasons = new HashMap<>();
  private final Set<String> countedKills = new HashSet<>();
  private JobEngine engine;
  private boolean ending;

  AmEvents(EventLog log, ExecutorSeconds executorSeconds, AmMetrics metrics, Clock clock) {
    this.log = log;
    this.executorSeconds = executorSeconds;
    this.metrics = metrics;
    this.clock = clock;
  }

  AmMetrics metrics() {
    return metrics;
  }

  void attach(JobEngine d) {
    this.engine = d;
  }

  void ending() {
    ending = true;
  }

  @Override
  public void containersRequested(int count, List<String> nodes, List<String> racks) {
    metrics.requestsAdded(count);
    log.write(Event.CONTAINERS_REQUESTED, COUNT, count, NODES, nodes.isEmpty() ? null : nodes,
        RACKS, racks.isEmpty() ? null : racks);
  }

  @Override
  public void requestsCancelled(int count, String reason) {
    metrics.requestsCancelled(count);
    log.write(Event.REQUESTS_CANCELLED, COUNT, count, REASON, reason);
  }

  @Override
  public void containerAllocated(String containerId, String host, String matched) {
    executorSeconds.allocated(containerId, clock.nowMs());
    metrics.containerAllocated();
    log.write(Event.CONTAINER_ALLOCATED, CONTAINER_ID, containerId, HOST, host, MATCHED, matched);
  }

  @Override
  public void containerReleased(String containerId, String reason) {
    executorSeconds.released(containerId, clock.nowMs());
    metrics.containerReleased();
    releaseReasons.putIfAbsent(containerId, reason);
    log.write(Event.CONTAINER_RELEASED, CONTAINER_ID, containerId, REASON, reason);
  }

  @Override
  public void executorLaunched(ExecutorId executor, String containerId, String host) {
    log.write(Event.EXECUTOR_LAUNCHED, EXECUTOR_ID, executor.toString(), CONTAINER_ID, containerId, HOST, host);
    if (engine != null) {
      engine.executorLaunched(executor.toString());
    }
  }

  @Override
  public void executorLaunchFailed(ExecutorId executor, String containerId, String host, String why) {
    countedKills.add(containerId);
  }

  @Override
  public void containerCompleted(ContainerCompleted c) {
    executorSeconds.completed(c.container().id(), clock.nowMs());
    String id = c.container().id();
    String releasedFor = releaseReasons.remove(id);
    boolean counted = c.verdict().countsAsFailure() || countedKills.remove(id);
    String reason = reason(c, releasedFor, counted);
    metrics.executorRemoved(reason, counted);
    log.write(Event.EXECUTOR_REMOVED, EXECUTOR_ID, c.executor() == null ? null : c.executor().toString(),
        CONTAINER_ID, id, HOST, c.host(), REASON, reason, EXIT_STATUS, c.exitStatus(),
        EXIT_STATUS_NAME, ExitStatus.name(c.exitStatus()), COUNTED_AS_FAILURE, counted,
        MESSAGE, c.verdict().message());
    if (engine != null && c.executor() != null) {
      engine.containerCompleted(c.executor().toString(), c.verdict().message());
    }
  }

  private String reason(ContainerCompleted c, String releasedFor, boolean counted) {
    if (ending || "app_end".equals(c.verdict().kind())) {
      return "app_end";
    }
    if (releasedFor != null) {
      if (releasedFor.startsWith("lost")) {
        return "lost";
      }
      if (releasedFor.startsWith("idle")) {
        return "idle";
      }
      if (releasedFor.startsWith(JobEngine.GIVEN_BACK)) {
        return "preempted";
      }
      if (releasedFor.startsWith(JobEngine.DECOMMISSIONING)) {
        return "decommissioned";
      }
      return counted ? "failed" : "policy";
    }
    return switch (c.verdict().kind()) {
      case "preempted" -> "preempted";
      case "decommissioned" -> "decommissioned";
      case "lost", "disks" -> "lost";
      default -> "failed";
    };
  }

  /**
   * The AM unregisters while YARN has not yet reported these containers completed: YARN stops
   * them. Logged as removed now, so the event log accounts for every executor it launched.
   */
  void unregisteringWith(List<org.elasticam.allocator.ledger.HeldContainer> held) {
    for (org.elasticam.allocator.ledger.HeldContainer c : held) {
      executorSeconds.completed(c.container().id(), clock.nowMs());
      releaseReasons.remove(c.container().id());
      metrics.executorRemoved("app_end", false);
      log.write(Event.EXECUTOR_REMOVED, EXECUTOR_ID, c.executor().toString(), CONTAINER_ID, c.container().id(),
          HOST, c.host(), REASON, "app_end", EXIT_STATUS, null, EXIT_STATUS_NAME, null,
          COUNTED_AS_FAILURE, false, MESSAGE, "still running when the AM unregistered; YARN stops it");
    }
  }

  @Override
  public void nodesExcluded(Map<String, Long> untilMs) {
    untilMs.forEach((host, until) -> log.write(Event.NODE_EXCLUDED, HOST, host, UNTIL_TS, until));
  }

  @Override
  public void nodeUnusable(String host, String state) {
    log.write(Event.NODE_LOST, HOST, host, STATE, state);
    if (engine != null) {
      engine.nodeLost(host, state);
    }
  }

  @Override
  public void nodeDecommissioning(String host, Integer timeoutSeconds) {
    log.write(Event.NODE_DECOMMISSIONING, HOST, host, TIMEOUT_S, timeoutSeconds);
    if (engine != null) {
      engine.nodeDecommissioning(host, timeoutSeconds == null ? "no timeout given"
          : "it leaves within " + timeoutSeconds + " s");
    }
  }

  @Override
  public void nodeRecommissioned(String host) {
    if (engine != null) {
      engine.nodeRecommissioned(host);
    }
  }

  @Override
  public void preemptionRequested(List<String> named, int more) {
    log.write(Event.PREEMPTION_REQUESTED, EXECUTORS, named, MORE, more);
    if (engine != null) {
      engine.preemptionRequested(named, more);
    }
  }

  @Override
  public void warning(String message) {
    log.write(Event.ALLOCATOR_WARNING, MESSAGE, message);
  }

  @Override
  public void applicationFailed(String diagnostics) {
    if (engine != null) {
      engine.finish(new Outcome(Outcome.Status.FAILED, diagnostics));
    }
  }

  @Override
  public void failedExecutorKilled(String containerId) {
    countedKills.add(containerId);
  }
}
