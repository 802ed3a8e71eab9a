package org.elasticam.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.elasticam.api.Task;
import org.elasticam.api.TaskContext;
import org.elasticam.io.OutputFiles;
import org.elasticam.rpc.proto.LaunchTask;
import org.elasticam.rpc.proto.TaskState;
import org.elasticam.rpc.proto.TaskUpdate;
import org.elasticam.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The task half of a stage's output commit, on the task runner and the local file system: an
 * attempt's files become the task's only when it returns normally and the driver lets it commit;
 * a refused or failed attempt leaves none.
 */
class OutputCommitTaskTest {

  /** Writes {@code part-N} with one line, then fails when asked to. */
  public static final class WritePart implements Task {
    @Override
    public void run(TaskContext ctx) throws Exception {
      try (Writer out = OutputFiles.text(ctx)) {
        out.write("written by attempt " + ctx.attempt() + "\n");
      }
      if (Boolean.parseBoolean(ctx.params().get("fail"))) {
        throw new IllegalStateException("failing after writing, on purpose");
      }
    }
  }

  @TempDir
  Path out;
  @TempDir
  Path scratch;
  private final BlockingQueue<TaskUpdate> updates = new LinkedBlockingQueue<>();
  private final BlockingQueue<Long> asked = new LinkedBlockingQueue<>();
  private TaskLoader loader;
  private TaskRunner runner;
  private CommitRequests commits;

  private void start(boolean driverAllows) throws Exception {
    loader = new TaskLoader(Optional.empty());
    commits = new CommitRequests(taskId -> {
      asked.add(taskId);
      new Thread(() -> commits.answered(taskId, driverAllows)).start();
    }, Duration.ofSeconds(5));
    runner = new TaskRunner(1, loader, "7", "localhost", scratch, Clock.system(), updates::add, null, commits);
  }

  @AfterEach
  void stop() throws Exception {
    if (runner != null) {
      runner.close();
    }
    if (loader != null) {
      loader.close();
    }
  }

  private LaunchTask launch(long taskId, int partition, int attempt, boolean fail) {
    return LaunchTask.newBuilder().setTaskId(taskId).setStageId(1).setPartition(partition).setAttempt(attempt)
        .setTaskClass(WritePart.class.getName()).putParams("fail", String.valueOf(fail))
        .setOutputDir(out.toUri().toString()).build();
  }

  private TaskUpdate run(LaunchTask t) throws InterruptedException {
    runner.launch(t);
    TaskUpdate u = updates.poll(10, TimeUnit.SECONDS);
    assertNotNull(u, "the attempt ended");
    return u;
  }

  @Test
  void anAttemptThatEndsWellAndMayCommitMakesItsFilesTheTasks() throws Exception {
    start(true);
    TaskUpdate u = run(launch(1, 3, 0, false));
    assertEquals(TaskState.TASK_STATE_SUCCEEDED, u.getState(), u.getError());
    assertEquals(List.of(1L), List.copyOf(asked), "the runner asked the driver once");
    List<String> files = files();
    assertEquals(1, files.size(), files.toString());
    assertTrue(files.get(0).matches("_temporary/task-1-3/attempt-1-3-0-[^/]+/part-00003"), files.toString());
    assertEquals("written by attempt 0\n", Files.readString(out.resolve(files.get(0))));
  }

  @Test
  void anAttemptTheDriverRefusesEndsKilledAndLeavesNothing() throws Exception {
    start(false);
    TaskUpdate u = run(launch(2, 3, 1, false));
    assertEquals(TaskState.TASK_STATE_KILLED, u.getState());
    assertEquals(List.of(), files());
  }

  @Test
  void aFailedAttemptIsNeverAskedAboutAndLeavesNothing() throws Exception {
    start(true);
    TaskUpdate u = run(launch(3, 0, 0, true));
    assertEquals(TaskState.TASK_STATE_FAILED, u.getState());
    assertTrue(u.getError().contains("failing after writing, on purpose"), u.getError());
    assertTrue(asked.isEmpty());
    assertEquals(List.of(), files());
    assertFalse(Files.exists(out.resolve("_temporary/task-1-0")));
  }

  /** Files under the output directory, relative, without Hadoop's checksum files. */
  private List<String> files() throws Exception {
    try (Stream<Path> s = Files.walk(out)) {
      return s.filter(Files::isRegularFile).map(p -> out.relativize(p).toString())
          .filter(n -> !n.endsWith(".crc")).sorted().toList();
    }
  }
}
