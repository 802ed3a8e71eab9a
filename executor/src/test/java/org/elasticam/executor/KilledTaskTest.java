package org.elasticam.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.elasticam.api.Task;
import org.elasticam.api.TaskContext;
import org.elasticam.rpc.proto.LaunchTask;
import org.elasticam.rpc.proto.ShuffleWrite;
import org.elasticam.rpc.proto.TaskState;
import org.elasticam.rpc.proto.TaskUpdate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What TaskContext promises of a killed attempt: whether its code returns or throws once
 * {@code isKilled()}, it ends KILLED and commits nothing, its shuffle output included. The task
 * runner, a real shuffle writer and the executor's own local dirs; the driver is a queue.
 */
class KilledTaskTest {

  /** Set when a {@link WriteThenRun} attempt has written its records. */
  static volatile CountDownLatch written = new CountDownLatch(1);

  /** Writes records to its shuffle, then returns at once or, with {@code wait}, when killed. */
  public static final class WriteThenRun implements Task {
    @Override
    public void run(TaskContext ctx) throws Exception {
      for (int i = 0; i < 100; i++) {
        ctx.shuffleOutput().write(("k" + i).getBytes(StandardCharsets.UTF_8), new byte[16]);
      }
      written.countDown();
      if (Boolean.parseBoolean(ctx.params().get("wait"))) {
        while (!ctx.isKilled()) {
          LockSupport.parkNanos(1_000_000);
        }
        // Returns normally, as a task that checks isKilled() does: this must not publish its output.
      }
    }
  }

  @TempDir
  Path dirs;
  @TempDir
  Path scratch;
  private TaskRunnerFixture fx;

  private void start() throws Exception {
    fx = new TaskRunnerFixture(dirs, scratch);
  }

  @AfterEach
  void stop() throws Exception {
    if (fx != null) {
      fx.close();
    }
  }

  private static LaunchTask launch(long taskId, boolean waitForKill) {
    return LaunchTask.newBuilder().setTaskId(taskId).setStageId(0).setPartition((int) taskId).setAttempt(0)
        .setTaskClass(WriteThenRun.class.getName()).putParams("wait", String.valueOf(waitForKill))
        .setShuffleWrite(ShuffleWrite.newBuilder().setShuffleId(0).setPartitions(2)).build();
  }

  private List<Path> committedFiles() throws Exception {
    try (Stream<Path> s = Files.walk(dirs)) {
      return s.filter(Files::isRegularFile).toList();
    }
  }

  @Test
  void anAttemptThatReturnsAfterItWasKilledEndsKilledAndCommitsNothing() throws Exception {
    start();
    written = new CountDownLatch(1);
    fx.runner.launch(launch(1, true));
    assertTrue(written.await(10, TimeUnit.SECONDS), "the task wrote its records");
    fx.runner.kill(1);
    TaskUpdate u = fx.updates.poll(10, TimeUnit.SECONDS);
    assertNotNull(u, "the attempt ended");
    assertEquals(TaskState.TASK_STATE_KILLED, u.getState());
    assertEquals(0, u.getPartitionBytesCount(), "no shuffle output reported");
    assertEquals(List.of(), committedFiles(), "no shuffle output published");
  }

  /** The same task left alone publishes its output: what the case above checks is there to see. */
  @Test
  void theSameAttemptNotKilledCommitsItsOutput() throws Exception {
    start();
    written = new CountDownLatch(1);
    fx.runner.launch(launch(2, false));
    TaskUpdate u = fx.updates.poll(10, TimeUnit.SECONDS);
    assertNotNull(u);
    assertEquals(TaskState.TASK_STATE_SUCCEEDED, u.getState(), u.getError());
    assertEquals(2, u.getPartitionBytesCount());
    assertTrue(!committedFiles().isEmpty(), "its data and index files are in the local dirs");
  }
}
