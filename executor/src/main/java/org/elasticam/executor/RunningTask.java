package org.elasticam.executor;

import java.nio.file.Path;
import java.util.Map;
import org.elasticam.api.TaskContext;
import org.elasticam.rpc.proto.LaunchTask;

/** One task attempt in this executor: its context, and the thread to interrupt on a kill. */
final class RunningTask implements TaskContext {

  private final LaunchTask spec;
  private final String executorId;
  private final String host;
  private final Path scratch;
  private volatile boolean killed;
  private volatile Thread thread;

  RunningTask(LaunchTask spec, String executorId, String host, Path scratch) {
    this.spec = spec;
    this.executorId = executorId;
    this.host = host;
    this.scratch = scratch;
  }

  long taskId() {
    return spec.getTaskId();
  }

  LaunchTask spec() {
    return spec;
  }

  void runningOn(Thread t) {
    this.thread = t;
  }

  void kill() {
    killed = true;
    Thread t = thread;
    if (t != null) {
      t.interrupt();
    }
  }

  @Override
  public int stageId() {
    return spec.getStageId();
  }

  @Override
  public int partition() {
    return spec.getPartition();
  }

  @Override
  public int attempt() {
    return spec.getAttempt();
  }

  @Override
  public String executorId() {
    return executorId;
  }

  @Override
  public String host() {
    return host;
  }

  @Override
  public Map<String, String> params() {
    return spec.getParamsMap();
  }

  @Override
  public Path scratchDir() {
    return scratch;
  }

  @Override
  public boolean isKilled() {
    return killed;
  }
}
