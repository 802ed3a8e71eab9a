package org.elasticam.executor;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.elasticam.api.Task;
import org.elasticam.rpc.RpcLimits;
import org.elasticam.rpc.proto.LaunchTask;
import org.elasticam.rpc.proto.TaskState;
import org.elasticam.rpc.proto.TaskUpdate;
import org.elasticam.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs task attempts in a fixed number of slots and reports each outcome once. */
final class TaskRunner implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(TaskRunner.class);

  private final ExecutorService slots;
  private final TaskLoader loader;
  private final String executorId;
  private final String host;
  private final Path scratchRoot;
  private final Clock clock;
  private final Consumer<TaskUpdate> report;
  private final Map<Long, RunningTask> running = new ConcurrentHashMap<>();

  TaskRunner(int slotCount, TaskLoader loader, String executorId, String host, Path scratchRoot, Clock clock,
      Consumer<TaskUpdate> report) {
    this.slots = Executors.newFixedThreadPool(slotCount, r -> {
      Thread t = new Thread(r, "task-slot");
      t.setDaemon(true);
      return t;
    });
    this.loader = loader;
    this.executorId = executorId;
    this.host = host;
    this.scratchRoot = scratchRoot;
    this.clock = clock;
    this.report = report;
  }

  void launch(LaunchTask spec) {
    Path scratch = scratchRoot.resolve("task-" + spec.getTaskId());
    RunningTask task = new RunningTask(spec, executorId, host, scratch);
    running.put(spec.getTaskId(), task);
    slots.execute(() -> run(task));
  }

  void kill(long taskId) {
    RunningTask t = running.get(taskId);
    if (t != null) {
      t.kill();
    }
  }

  Iterable<Long> runningTaskIds() {
    return running.keySet();
  }

  private void run(RunningTask task) {
    task.runningOn(Thread.currentThread());
    long start = clock.nowMs();
    TaskState state;
    String error = "";
    try {
      Files.createDirectories(task.scratchDir());
      Task t = loader.newTask(task.spec().getTaskClass());
      t.run(task);
      state = task.isKilled() ? TaskState.TASK_STATE_KILLED : TaskState.TASK_STATE_SUCCEEDED;
    } catch (InterruptedException e) {
      state = task.isKilled() ? TaskState.TASK_STATE_KILLED : TaskState.TASK_STATE_FAILED;
      error = task.isKilled() ? "" : describe(e);
    } catch (Exception | LinkageError e) {
      state = task.isKilled() ? TaskState.TASK_STATE_KILLED : TaskState.TASK_STATE_FAILED;
      error = task.isKilled() ? "" : describe(e);
    } finally {
      Thread.interrupted();
      running.remove(task.taskId());
      deleteQuietly(task.scratchDir());
    }
    long ms = clock.nowMs() - start;
    if (state == TaskState.TASK_STATE_FAILED) {
      LOG.warn("Task {} (stage {} partition {} attempt {}) failed after {} ms: {}", task.taskId(), task.stageId(),
          task.partition(), task.attempt(), ms, firstLine(error));
    }
    report.accept(TaskUpdate.newBuilder().setTaskId(task.taskId()).setState(state).setError(error).setRunMs(ms).build());
  }

  private static String describe(Throwable e) {
    StringWriter sw = new StringWriter();
    e.printStackTrace(new PrintWriter(sw));
    String s = sw.toString();
    return s.length() > RpcLimits.MAX_ERROR_CHARS ? s.substring(0, RpcLimits.MAX_ERROR_CHARS) : s;
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  private static void deleteQuietly(Path dir) {
    try (var walk = Files.walk(dir)) {
      walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (Exception e) {
      LOG.debug("could not delete {}: {}", dir, e.toString());
    }
  }

  @Override
  public void close() {
    running.values().forEach(RunningTask::kill);
    slots.shutdownNow();
    try {
      slots.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
