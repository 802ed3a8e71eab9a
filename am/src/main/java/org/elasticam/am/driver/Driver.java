package org.elasticam.am.driver;

import io.grpc.Status;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.elasticam.api.Counters;
import org.elasticam.engine.job.JobEngine;
import org.elasticam.engine.job.Registration;
import org.elasticam.engine.job.TaskReport;
import org.elasticam.rpc.proto.DriverMessage;
import org.elasticam.rpc.proto.ExecutorMessage;
import org.elasticam.rpc.proto.HeartbeatAck;
import org.elasticam.rpc.proto.Register;
import org.elasticam.rpc.proto.TaskUpdate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The AM's end of the control plane around the {@link JobEngine}: executors' messages become the
 * engine's records (a registration, a heartbeat, a task report, a commit request), and what the
 * engine tells an executor goes back over its session ({@link ExecutorSession}). Heartbeats are
 * acknowledged here; everything the job decides is the engine's. Event loop only.
 */
public final class Driver implements DriverService.SessionHandler {

  private static final Logger LOG = LoggerFactory.getLogger(Driver.class);
  /** How a session whose first message is not a registration is refused. */
  static final Status UNREGISTERED =
      Status.INVALID_ARGUMENT.withDescription("the first message of a session must be Register");
  private final JobEngine engine;

  public Driver(JobEngine engine) {
    this.engine = engine;
  }

  public JobEngine engine() {
    return engine;
  }

  // ---- the control plane -----------------------------------------------------------------------

  @Override
  public void onMessage(ExecutorSession session, ExecutorMessage m) {
    if (!session.registered() && m.getBodyCase() != ExecutorMessage.BodyCase.REGISTER) {
      session.refuse(UNREGISTERED);
      return;
    }
    switch (m.getBodyCase()) {
      case REGISTER -> {
        if (session.registered()) {
          session.refuse("this session already registered executor " + session.engineSession().executorId());
          return;
        }
        session.attach(engine.register(session, registration(m.getRegister())));
      }
      case HEARTBEAT -> {
        engine.heard(session.engineSession());
        session.send(DriverMessage.newBuilder()
            .setHeartbeatAck(HeartbeatAck.newBuilder().setSentAtMs(m.getHeartbeat().getSentAtMs())).build());
      }
      case TASK_UPDATE -> {
        engine.heard(session.engineSession());
        engine.taskReported(session.engineSession(), report(m.getTaskUpdate()));
      }
      case COMMIT_REQUEST -> {
        engine.heard(session.engineSession());
        engine.commitRequested(session.engineSession(), m.getCommitRequest().getTaskId());
      }
      default -> session.refuse(Status.INVALID_ARGUMENT.withDescription("empty message"));
    }
  }

  @Override
  public void onClosed(ExecutorSession session, String why) {
    if (session.registered()) {
      engine.sessionClosed(session.engineSession(), why);
    }
  }

  private static Registration registration(Register r) {
    return new Registration(String.valueOf(r.getExecutorId()), r.getHost(), r.getContainerId(), r.getCores(),
        r.getPid(), r.getJavaVersion(), r.getJavaHome(), r.getLocalDirsList(), r.getShuffleExternal(), startPhases(r));
  }

  /** The executor's start-up steps as it reported them: step → JVM uptime, CPU ms and classes loaded then. */
  private static Map<String, Object> startPhases(Register r) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("jvm_start_ts", r.getStart().getJvmStartMs());
    if (!r.getStart().getArchive().isEmpty()) {
      out.put("archive", r.getStart().getArchive());
    }
    for (org.elasticam.rpc.proto.StartStep s : r.getStart().getStepsList()) {
      Map<String, Object> step = new LinkedHashMap<>();
      step.put("uptime_ms", s.getUptimeMs());
      step.put("cpu_ms", s.getCpuMs());
      step.put("classes", s.getClassesLoaded());
      out.put(s.getStep().replace(' ', '_'), step);
    }
    return out;
  }

  private static TaskReport report(TaskUpdate u) {
    TaskReport.State state = switch (u.getState()) {
      case TASK_STATE_RUNNING -> TaskReport.State.RUNNING;
      case TASK_STATE_SUCCEEDED -> TaskReport.State.SUCCEEDED;
      case TASK_STATE_KILLED -> TaskReport.State.KILLED;
      case TASK_STATE_FETCH_FAILED -> TaskReport.State.FETCH_FAILED;
      default -> TaskReport.State.FAILED;
    };
    TaskReport.FetchFailure fetch = state != TaskReport.State.FETCH_FAILED ? null
        : new TaskReport.FetchFailure(u.getFetchFailure().getShuffleId(), u.getFetchFailure().getExecutorId(),
            u.getFetchFailure().getMapIdsList(), u.getFetchFailure().getMessage());
    return new TaskReport(u.getTaskId(), state, u.getError(), u.getShufflePort(), fetch, counters(u));
  }

  /**
   * The attempt's counters within {@link Counters}' limits, which executors keep: from one that
   * sends more, the names beyond them are dropped, and the log says so.
   */
  static Map<String, Long> counters(TaskUpdate u) {
    Map<String, Long> in = u.getCountersMap();
    if (in.isEmpty()) {
      return Map.of();
    }
    Map<String, Long> kept = new TreeMap<>();
    for (Map.Entry<String, Long> c : new TreeMap<>(in).entrySet()) {
      if (kept.size() < Counters.MAX_PER_TASK && validName(c.getKey())) {
        kept.put(c.getKey(), c.getValue());
      }
    }
    if (kept.size() < in.size()) {
      LOG.warn("Task {}: {} of its {} counters dropped (over org.elasticam.api.Counters' limits of {} names of {} "
          + "characters)", u.getTaskId(), in.size() - kept.size(), in.size(), Counters.MAX_PER_TASK,
          Counters.MAX_NAME_CHARS);
    }
    return kept;
  }

  private static boolean validName(String name) {
    try {
      Counters.checkName(name);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  // ---- the AM's journal, in the engine's terms (the rest of the AM talks to engine()) -----------

  /** Records completed stages here, for a later attempt of the AM. Before the engine starts. */
  public void recordTo(Recovery.Journal j) {
    engine.recordTo(Recovery.journal(j));
  }

  /** This attempt follows an AM restart. Before the engine starts. */
  public void recover(Recovery r) {
    engine.recover(r.restarted());
  }
}
