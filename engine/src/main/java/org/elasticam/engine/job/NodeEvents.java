package org.elasticam.engine.job;

import static org.elasticam.report.events.EventFields.HOST;

import java.util.List;
import java.util.Set;
import org.elasticam.engine.executors.ExecutorRoster;
import org.elasticam.engine.job.JobEngine.Session;
import org.elasticam.engine.lineage.MapOutputs;
import org.elasticam.engine.lineage.StageLineage;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.report.events.Event;
import org.elasticam.report.events.EventWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the ResourceManager says of the cluster under the job: a node lost, being decommissioned or
 * back in service, containers it is about to preempt. Each becomes executors lost, retired once
 * idle or given back, and shuffle output copied off a node before it leaves.
 */
final class NodeEvents {

  // JobEngine's logger: these lines were the engine's, and log settings name it.
  private static final Logger LOG = LoggerFactory.getLogger(JobEngine.class);

  /** The job's side of an executor lost to its node, and of slots that changed hands. */
  interface Job {
    void executorLost(String id, String why, boolean release);

    void revive();
  }

  private final ExecutorSessions sessions;
  private final ExecutorRoster roster;
  private final TaskScheduler scheduler;
  private final StageLineage lineage;
  private final MapOutputs mapOutputs;
  private final OutputRecovery recovery;
  private final TargetSync target;
  private final AllocatorPort allocator;
  private final EventWriter events;
  private final Job job;

  NodeEvents(ExecutorSessions sessions, ExecutorRoster roster, TaskScheduler scheduler, StageLineage lineage,
      OutputRecovery recovery, TargetSync target, AllocatorPort allocator, EventWriter events, Job job) {
    this.sessions = sessions;
    this.roster = roster;
    this.scheduler = scheduler;
    this.lineage = lineage;
    this.mapOutputs = lineage.outputs();
    this.recovery = recovery;
    this.target = target;
    this.allocator = allocator;
    this.events = events;
    this.job = job;
  }

  /** See {@link JobEngine#nodeLost}. */
  void nodeLost(String host, String state) {
    roster.hostGone(host);
    String why = "its node " + host + " is " + state;
    for (Session s : List.copyOf(sessions.all())) {
      if (host.equals(s.host)) {
        job.executorLost(s.executorId, why, true);
      }
    }
    Set<Integer> lostShuffles = mapOutputs.hostLost(host);
    LOG.warn("Node {} is {}: its executors are lost{}", host, state,
        lostShuffles.isEmpty() ? "" : " and so is the shuffle output of stage(s) " + lostShuffles + " on it");
  }

  /** See {@link JobEngine#nodeDecommissioning}. */
  void nodeDecommissioning(String host, String timeout) {
    if (!roster.decommissioning(host)) {
      return;
    }
    for (Session s : List.copyOf(sessions.all())) {
      if (host.equals(s.host) && roster.retire(s.executorId, JobEngine.DECOMMISSIONING)) {
        LOG.info("Retiring executor {}: its node {} is being decommissioned ({})", s.executorId, host, timeout);
        sessions.retireIfIdle(s.executorId);
      }
    }
    lineage.copyOff(host, "its node " + host + " is being decommissioned: copied by running the maps elsewhere first",
        scheduler::isActive).forEach(recovery::rerun);
    target.sync();
    job.revive();
  }

  /** See {@link JobEngine#nodeRecommissioned}. */
  void nodeRecommissioned(String host) {
    if (!roster.recommissioned(host)) {
      return;
    }
    for (Session s : sessions.all()) {
      if (host.equals(s.host) && roster.staysAfterRecommission(s.executorId)) {
        LOG.info("Executor {} stays: its node {} was recommissioned", s.executorId, host);
      }
    }
    events.write(Event.NODE_RECOMMISSIONED, HOST, host);
    job.revive();
  }

  /** See {@link JobEngine#preemptionRequested}. */
  void preemptionRequested(List<String> named, int more) {
    named.stream().filter(id -> !sessions.isRegistered(id) && !roster.isGone(id)
        && allocator.launched(id).isPresent()).forEach(this::giveBackUnregistered);
    List<String> chosen = roster.toGiveBack(named, more, sessions.ids(), mapOutputs::holdsUnservedOutput,
        scheduler::runningOn);
    for (String id : chosen) {
      if (roster.retire(id, JobEngine.GIVEN_BACK + " before it preempts it")) {
        LOG.info("Giving back executor {} ({} running task(s)): the ResourceManager is about to preempt {}", id,
            scheduler.runningOn(id), named.contains(id) ? "its container" : more + " of our containers");
        sessions.retireIfIdle(id);
      }
    }
  }

  /**
   * A container the ResourceManager names whose executor has not registered yet runs nothing: it
   * goes back at once, and its executor, should it still register, is refused.
   */
  private void giveBackUnregistered(String id) {
    roster.gone(id);
    LOG.info("Giving back executor {}, launched and not registered yet: the ResourceManager is about to preempt"
        + " its container", id);
    allocator.killExecutor(id, JobEngine.GIVEN_BACK + " before it preempts it (its executor had not registered)");
  }
}
