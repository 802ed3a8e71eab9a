package org.elasticam.executor;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.elasticam.api.Task;
import org.elasticam.executor.shuffle.ExecutorShuffle;
import org.elasticam.executor.shuffle.FetchFailedException;
import org.elasticam.io.commit.OutputCommit;
import org.elasticam.rpc.proto.FetchFailure;
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
  private final ExecutorShuffle shuffle;
  private final long shuffleMemoryBytes;
  private final CommitRequests commits;
  private org.apache.hadoop.conf.Configuration hadoopConf;

  /** @param shuffle the executor's shuffle, or null when it has none */
  TaskRunner(int slotCount, TaskLoader loader, String executorId, String host, Path scratchRoot, Clock clock,
      Consumer<TaskUpdate> report, ExecutorShuffle shuffle, CommitRequests commits) {
    this.commits = commits;
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
    this.shuffle = shuffle;
    // A quarter of the heap for shuffle buffers, shared by the slots; each task's writer and each
    // of its inputs spill to disk past their share.
    this.shuffleMemoryBytes = Math.max(1 << 20, Runtime.getRuntime().maxMemory() / 4 / slotCount);
  }

  void launch(LaunchTask spec) {
    StartupClassPath.complete(); // a task may need any of the cluster's classes
    Path scratch = scratchRoot.resolve("task-" + spec.getTaskId());
    RunningTask task = new RunningTask(spec, executorId, host, scratch, shuffle, shuffleMemoryBytes, commits);
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
    long[] partitionBytes = new long[0];
    Map<String, Long> counters = Map.of();
    int shufflePort = 0;
    FetchFailure fetchFailure = null;
    Throwable failure = null;
    boolean outputCommitted = false;
    try {
      Task t = loader.newTask(task.spec().getTaskClass());
      task.loadShuffleClasses(loader);
      t.run(task);
      if (!task.isKilled() && !task.commitDenied() && task.writesOutput()) {
        outputCommitted = commitOutput(task);
      }
      if (task.isKilled() || task.commitDenied()) {
        state = TaskState.TASK_STATE_KILLED;
        error = task.commitDenied() ? "another attempt commits this task's output" : "";
      } else {
        partitionBytes = task.commitShuffleOutput();
        if (partitionBytes.length > 0) {
          shufflePort = shuffle.servedAt().port();
        }
        state = TaskState.TASK_STATE_SUCCEEDED;
        // Only a successful attempt's: a failed or killed one's work is dropped, its counts with it.
        counters = task.counterValues();
      }
    } catch (Exception | LinkageError e) {
      FetchFailedException lost = fetchFailureIn(e);
      if (task.isKilled() || task.commitDenied()) {
        state = TaskState.TASK_STATE_KILLED;
        error = task.commitDenied() ? "another attempt commits this task's output" : "";
      } else if (lost != null) {
        state = TaskState.TASK_STATE_FETCH_FAILED;
        error = lost.getMessage();
        fetchFailure = FetchFailure.newBuilder().setShuffleId(lost.shuffleId()).setExecutorId(lost.executorId())
            .addAllMapIds(lost.mapIds()).setMessage(lost.getMessage()).build();
      } else {
        state = TaskState.TASK_STATE_FAILED;
        error = describe(e);
        failure = e;
      }
    } finally {
      Thread.interrupted();
      if (task.writesOutput() && !outputCommitted) {
        abortOutput(task);
      }
      task.releaseShuffle();
      running.remove(task.taskId());
      deleteQuietly(task.scratchPath());
    }
    long ms = clock.nowMs() - start;
    if (state == TaskState.TASK_STATE_FAILED) {
      // The whole trace: the driver and the event log get one line of it, this log is where the rest is.
      LOG.warn("Task {} (stage {} partition {} attempt {}, {} with parameters {}) failed after {} ms", task.taskId(),
          task.stageId(), task.partition(), task.attempt(), task.spec().getTaskClass(), task.spec().getParamsMap(), ms,
          failure);
    } else if (fetchFailure != null) {
      LOG.warn("Task {} (stage {} partition {} attempt {}) could not fetch its input: {}", task.taskId(),
          task.stageId(), task.partition(), task.attempt(), error);
    }
    TaskUpdate.Builder u = TaskUpdate.newBuilder().setTaskId(task.taskId()).setState(state).setError(error)
        .setRunMs(ms);
    for (long b : partitionBytes) {
      u.addPartitionBytes(b);
    }
    u.setShufflePort(shufflePort);
    u.putAllCounters(counters);
    if (fetchFailure != null) {
      u.setFetchFailure(fetchFailure);
    }
    report.accept(u.build());
  }

  /**
   * Asks the driver whether this attempt may commit its output files and, if so, makes them the
   * task's (one rename). False when another attempt commits them: this one then ends killed.
   */
  private boolean commitOutput(RunningTask task) throws IOException {
    if (!task.canCommit()) {
      return false;
    }
    org.apache.hadoop.fs.Path committed = OutputCommit.commitTask(hadoopConf(), task.outputDir(),
        task.spec().getStageId(), task.partition(), task.attemptDir());
    LOG.info("Task {} (stage {} partition {} attempt {}) committed its output to {}", task.taskId(), task.stageId(),
        task.partition(), task.attempt(), committed);
    return true;
  }

  /** An attempt that did not commit leaves no files: a failed, killed or refused one. */
  private void abortOutput(RunningTask task) {
    try {
      OutputCommit.abortTask(hadoopConf(), task.attemptDir());
    } catch (IOException | RuntimeException e) {
      LOG.warn("Task {} could not remove its uncommitted output {}: {}", task.taskId(), task.attemptDir(),
          e.toString());
    }
  }

  /** Made on first use: an executor whose tasks write no output files loads none of Hadoop's configuration. */
  private synchronized org.apache.hadoop.conf.Configuration hadoopConf() {
    if (hadoopConf == null) {
      hadoopConf = new org.apache.hadoop.conf.Configuration();
    }
    return hadoopConf;
  }

  /** A fetch failure the task's code may have wrapped: it is still lost map output, not a task bug. */
  private static FetchFailedException fetchFailureIn(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof FetchFailedException f) {
        return f;
      }
    }
    return null;
  }

  private static String describe(Throwable e) {
    StringWriter sw = new StringWriter();
    e.printStackTrace(new PrintWriter(sw));
    String s = sw.toString();
    return s.length() > RpcLimits.MAX_ERROR_CHARS ? s.substring(0, RpcLimits.MAX_ERROR_CHARS) : s;
  }

  private static void deleteQuietly(Path dir) {
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return; // the attempt made no scratch files
    }
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
