package org.elasticam.engine.job;

import java.util.List;
import java.util.Map;

/**
 * What an executor says when it registers.
 *
 * @param pid its process id, or 0 when it did not tell (a simulated executor); javaVersion, javaHome
 *     and startPhases are null then
 * @param localDirs where its shuffle output goes
 * @param shuffleExternal whether its node's shuffle service serves that output (it outlives the executor)
 * @param startPhases its start-up steps as it measured them, for the event log
 */
public record Registration(String executorId, String host, String containerId, int cores, long pid,
    String javaVersion, String javaHome, List<String> localDirs, boolean shuffleExternal,
    Map<String, Object> startPhases) {

  public Registration {
    localDirs = List.copyOf(localDirs);
  }
}
