package org.elasticam.executor;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import org.elasticam.rpc.proto.StartPhases.Builder;
import org.elasticam.startup.StartMark;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where an executor's start-up goes: at each step, the JVM's uptime, the process's CPU time and the
 * classes loaded so far. The steps up to the stream to the driver go to the driver with the
 * registration (and into the event log); the log gets every step, the first task's included.
 */
final class StartPhases {

  private static final Logger LOG = LoggerFactory.getLogger(StartPhases.class);

  private final Map<String, StartMark> marks = new LinkedHashMap<>();
  private boolean logged;
  private String archive = "";

  /** Records {@code step} now (the first time only). */
  synchronized StartMark mark(String step) {
    return marks.computeIfAbsent(step, s -> StartMark.now());
  }

  /** How the JVM started with respect to the node's start-up archive ({@link org.elasticam.startup.NodeStartupArchive.State}). */
  synchronized void archive(String state) {
    archive = state;
  }

  synchronized Map<String, StartMark> marks() {
    return new LinkedHashMap<>(marks);
  }

  /** What the driver gets with the registration: the steps so far. */
  synchronized void into(Builder b) {
    b.setJvmStartMs(ManagementFactory.getRuntimeMXBean().getStartTime()).setArchive(archive);
    marks.forEach((step, m) -> b.addSteps(org.elasticam.rpc.proto.StartStep.newBuilder().setStep(step)
        .setUptimeMs(m.uptimeMs()).setCpuMs(m.cpuMs()).setClassesLoaded(m.classesLoaded())));
  }

  /** Logs the breakdown once, at the first task: one line a user can read. */
  synchronized void logOnce(String executorId) {
    if (logged) {
      return;
    }
    logged = true;
    StringBuilder line = new StringBuilder();
    StartMark previous = new StartMark(0, 0, 0);
    for (Map.Entry<String, StartMark> e : marks.entrySet()) {
      StartMark m = e.getValue();
      line.append(line.length() == 0 ? "" : ", ").append(e.getKey()).append(" at ").append(m.uptimeMs())
          .append(" ms (+").append(m.uptimeMs() - previous.uptimeMs()).append(" ms, CPU +")
          .append(m.cpuMs() - previous.cpuMs()).append(" ms, ").append(m.classesLoaded()).append(" classes)");
      previous = m;
    }
    LOG.info("Executor {} start-up, from JVM start: {}", executorId, line);
  }
}
