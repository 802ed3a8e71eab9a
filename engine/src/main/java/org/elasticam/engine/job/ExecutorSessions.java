package org.elasticam.engine.job;

import static org.elasticam.report.events.EventFields.JAVA_HOME;
import static org.elasticam.report.events.EventFields.JAVA_VERSION;
import static org.elasticam.report.events.EventFields.PID;
import static org.elasticam.report.events.EventFields.REATTACHED;
import static org.elasticam.report.events.EventFields.START;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.elasticam.conf.Durations;
import org.elasticam.engine.events.JobEvents;
import org.elasticam.engine.executors.ExecutorRoster;
import org.elasticam.engine.executors.ExecutorSlots;
import org.elasticam.engine.job.JobEngine.Session;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.time.Clock;
import org.elasticam.time.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The executors that registered and have not gone: who may register, the session each one speaks
 * over, whether it is still heard from, and what every one of them is told (tokens, shutdown). What
 * an executor's arrival or loss means for the job is the {@link Job}'s to decide.
 */
final class ExecutorSessions {

  // JobEngine's logger: these lines were the engine's, and log settings name it.
  private static final Logger LOG = LoggerFactory.getLogger(JobEngine.class);

  /** The job's side of an executor's arrival and loss. */
  interface Job {
    /** The application is ending: no executor may join it any more. */
    boolean ending();

    /** Admitted, before it is told it registered: it may take tasks. */
    void executorUp(String id, String host, boolean survivor);

    void executorLost(String id, String why, boolean release);
  }

  private final DriverSettings settings;
  private final Scheduler loop;
  private final Clock clock;
  private final AllocatorPort allocator;
  private final ExecutorRoster roster;
  private final JobEvents jobEvents;
  private final TaskScheduler scheduler;
  private final Job job;
  private final Map<String, Session> executors = new LinkedHashMap<>();
  private final ExecutorSlots slots = new ExecutorSlots();
  /** The newest tokens an AM with a keytab obtained, as sent; null until the first renewal. */
  private byte[] latestCredentials;

  ExecutorSessions(DriverSettings settings, Scheduler loop, Clock clock, AllocatorPort allocator,
      ExecutorRoster roster, JobEvents jobEvents, TaskScheduler scheduler, Job job) {
    this.settings = settings;
    this.loop = loop;
    this.clock = clock;
    this.allocator = allocator;
    this.roster = roster;
    this.jobEvents = jobEvents;
    this.scheduler = scheduler;
    this.job = job;
  }

  /** The allocator launched an executor: it must register within the registration timeout. */
  void launched(String executorId) {
    loop.schedule(settings.registrationTimeout(), () -> {
      if (!job.ending() && !executors.containsKey(executorId) && !roster.isGone(executorId)
          && allocator.launched(executorId).isPresent()) {
        roster.gone(executorId);
        allocator.killFailedExecutor(executorId, "it did not register within "
            + Durations.format(settings.registrationTimeout()) + " (elasticam.executor.registrationTimeout)");
      }
    });
  }

  /** See {@link JobEngine#register}: the session, or null when refused. */
  Session register(ExecutorLink link, Registration r) {
    String id = r.executorId();
    String why = refusal(r, id);
    if (why != null) {
      LOG.warn("Refusing executor {} from {} ({}): {}", id, r.host(), r.containerId(), why);
      link.refuse(why);
      return null;
    }
    Session session = new Session(link, r, Math.max(1, r.cores() / Math.max(1, settings.taskCpus())), clock.nowMs());
    boolean survivor = roster.reattached(id);
    executors.put(id, session);
    slots.add(new ExecutorSlots.Executor(id, r.host(), session.slots));
    allocator.executorRegistered(id);
    job.executorUp(id, r.host(), survivor);
    link.registered(settings.appId(), settings.heartbeatInterval().toMillis());
    if (latestCredentials != null) {
      link.credentials(latestCredentials);
    }
    if (survivor) {
      LOG.info("Executor {} re-attached from {} ({}, {} cores): it outlived the earlier AM attempt", id, r.host(),
          r.containerId(), r.cores());
    } else {
      LOG.info("Executor {} registered from {} ({}, {} cores)", id, r.host(), r.containerId(), r.cores());
    }
    jobEvents.executorRegistered(id, r.containerId(), r.host(), r.cores(), PID, r.pid() > 0 ? r.pid() : null, REATTACHED,
        survivor, JAVA_VERSION, r.javaVersion(), JAVA_HOME, r.javaHome(), START, r.startPhases());
    return session;
  }

  private String refusal(Registration r, String id) {
    if (job.ending()) {
      return "the application is ending";
    }
    if (executors.containsKey(id) || roster.isGone(id)) {
      return "executor " + id + " already registered once";
    }
    Optional<AllocatorPort.Launched> launched = allocator.launched(id);
    if (launched.isEmpty()) {
      return "no executor " + id + " was launched by this application";
    }
    if (!launched.get().containerId().equals(r.containerId())) {
      return "executor " + id + " runs in " + launched.get().containerId() + ", not " + r.containerId();
    }
    return null;
  }

  void heard(Session s) {
    s.lastHeardMs = clock.nowMs();
  }

  /** See {@link JobEngine#sessionClosed}: lost now, its container released after the grace. */
  void closed(Session session, String why) {
    if (executors.get(session.executorId) == session) {
      String id = session.executorId;
      job.executorLost(id, why, false);
      loop.schedule(settings.lostReleaseGrace(), () -> {
        if (allocator.launched(id).isPresent()) {
          allocator.killExecutor(id, "lost: " + why);
        }
      });
    }
  }

  /** Every tick: an executor silent past the heartbeat timeout is lost, and its container released as failed. */
  void checkHeartbeats() {
    long now = clock.nowMs();
    for (Session s : List.copyOf(executors.values())) {
      long silent = now - s.lastHeardMs;
      if (silent > settings.heartbeatTimeout().toMillis()) {
        String why = "no heartbeat for " + silent + " ms (elasticam.executor.heartbeatTimeout)";
        job.executorLost(s.executorId, why, false);
        allocator.killFailedExecutor(s.executorId, "lost: " + why);
      }
    }
  }

  /** A retiring executor whose last task ended goes now: its container is released, as no loss. */
  void retireIfIdle(String id) {
    Optional<String> why = roster.retiringWhy(id);
    if (why.isPresent() && executors.containsKey(id) && scheduler.runningOn(id) == 0) {
      roster.removing(id);
      allocator.killExecutor(id, why.get());
      job.executorLost(id, why.get(), false);
    }
  }

  /** The session of a lost executor ends: it offers no slot, may not come back, and its stream closes. */
  void end(String id) {
    Session s = executors.remove(id);
    slots.remove(id);
    roster.gone(id);
    if (s != null) {
      s.link.end();
    }
  }

  /** See {@link JobEngine#updateCredentials}. */
  void updateCredentials(byte[] tokens) {
    latestCredentials = tokens.clone();
    executors.values().forEach(s -> s.link.credentials(latestCredentials));
    LOG.info("Sent new delegation tokens to {} executor(s); executors registering later get them too",
        executors.size());
  }

  /** See {@link JobEngine#shutdownExecutors}. */
  void shutdown(String reason) {
    for (Session s : executors.values()) {
      // The executor closes the session itself once its tasks stopped and cleaned up.
      s.link.shutdown(reason);
    }
    executors.keySet().forEach(roster::gone);
    executors.clear();
  }

  List<TaskScheduler.Offer> offers(Predicate<String> offersNothing) {
    return slots.offers(scheduler, offersNothing);
  }

  boolean isRegistered(String id) {
    return executors.containsKey(id);
  }

  /** The executor's session, if it is registered. */
  Session get(String id) {
    return executors.get(id);
  }

  /** In the order they registered. */
  Collection<Session> all() {
    return executors.values();
  }

  List<String> ids() {
    return List.copyOf(executors.keySet());
  }

  int count() {
    return executors.size();
  }

  boolean isEmpty() {
    return executors.isEmpty();
  }
}
