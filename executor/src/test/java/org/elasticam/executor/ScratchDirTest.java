package org.elasticam.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.elasticam.api.Task;
import org.elasticam.api.TaskContext;
import org.elasticam.rpc.proto.LaunchTask;
import org.elasticam.rpc.proto.TaskState;
import org.elasticam.rpc.proto.TaskUpdate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What TaskContext promises of {@code scratchDir()}: a directory the attempt can write in, gone
 * with its files once the attempt ends; and an attempt that never asks for it gets no directory
 * made and removed on its behalf. The task runner and a real scratch root; the driver is a queue.
 */
class ScratchDirTest {

  /** Counted down by a {@link Hold} attempt once it runs; it returns when {@link #release} opens. */
  static volatile CountDownLatch running = new CountDownLatch(1);
  static volatile CountDownLatch release = new CountDownLatch(1);

  /** Runs until released, asking for its scratch directory (and writing a file there) only with {@code write}. */
  public static final class Hold implements Task {
    @Override
    public void run(TaskContext ctx) throws Exception {
      if (Boolean.parseBoolean(ctx.params().get("write"))) {
        Path dir = ctx.scratchDir();
        Files.writeString(dir.resolve("part"), "scratch of " + ctx.partition());
        Files.createDirectories(dir.resolve("nested"));
        Files.writeString(dir.resolve("nested").resolve("more"), "more");
      }
      running.countDown();
      if (!release.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("never released");
      }
    }
  }

  @TempDir
  Path dirs;
  @TempDir
  Path scratch;
  private TaskRunnerFixture executor;

  @BeforeEach
  void start() throws Exception {
    running = new CountDownLatch(1);
    release = new CountDownLatch(1);
    executor = new TaskRunnerFixture(dirs, scratch);
  }

  @AfterEach
  void stop() throws Exception {
    release.countDown();
    executor.close();
  }

  private static LaunchTask launch(long taskId, boolean write) {
    return LaunchTask.newBuilder().setTaskId(taskId).setStageId(0).setPartition((int) taskId).setAttempt(0)
        .setTaskClass(Hold.class.getName()).putParams("write", String.valueOf(write)).build();
  }

  private List<Path> underScratch() throws Exception {
    try (Stream<Path> s = Files.walk(scratch)) {
      return s.filter(p -> !p.equals(scratch)).toList();
    }
  }

  private void runUntilHeld(long taskId, boolean write) throws Exception {
    executor.runner.launch(launch(taskId, write));
    assertTrue(running.await(30, TimeUnit.SECONDS), "the attempt started");
  }

  private TaskUpdate end() throws Exception {
    release.countDown();
    TaskUpdate u = executor.updates.poll(30, TimeUnit.SECONDS);
    assertNotNull(u, "the attempt ended");
    return u;
  }

  @Test
  void anAttemptThatNeverAsksGetsNoDirectory() throws Exception {
    runUntilHeld(1, false);
    assertEquals(List.of(), underScratch(), "nothing made for an attempt that did not ask for its scratch directory");
    assertEquals(TaskState.TASK_STATE_SUCCEEDED, end().getState());
    assertEquals(List.of(), underScratch());
  }

  @Test
  void theDirectoryIsWritableWhileTheAttemptRunsAndGoneAfterIt() throws Exception {
    runUntilHeld(2, true);
    Path dir = scratch.resolve("task-2");
    assertEquals("scratch of 2", Files.readString(dir.resolve("part")));
    assertTrue(Files.isRegularFile(dir.resolve("nested").resolve("more")));
    assertEquals(TaskState.TASK_STATE_SUCCEEDED, end().getState());
    assertFalse(Files.exists(dir), "the scratch directory and everything in it are deleted when the attempt ends");
    assertEquals(List.of(), underScratch());
  }
}
