package org.elasticam.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.elasticam.api.KeyOrder;
import org.elasticam.api.Partitioner;
import org.elasticam.api.RangePartitioner;
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
 * The classes a stage names for its shuffle are loaded as task classes are, and a wrong one fails
 * the map task with a message that says what is wrong: a partition the stage does not have, a
 * class of the wrong kind, parameters the class refuses.
 */
class ShuffleClassesTest {

  /** Writes one record. */
  public static final class WriteOne implements Task {
    @Override
    public void run(TaskContext ctx) throws Exception {
      ctx.shuffleOutput().write(new byte[] {7}, new byte[] {1});
    }
  }

  /** Sends every key one partition past the last. */
  public static final class PastTheEnd implements Partitioner {
    @Override
    public int partition(byte[] key, int partitions) {
      return partitions;
    }
  }

  @TempDir
  Path dirs;
  @TempDir
  Path scratch;
  private TaskRunnerFixture fx;

  @AfterEach
  void stop() throws Exception {
    if (fx != null) {
      fx.close();
    }
  }

  private TaskUpdate run(ShuffleWrite.Builder write) throws Exception {
    fx = new TaskRunnerFixture(dirs, scratch);
    fx.runner.launch(LaunchTask.newBuilder().setTaskId(1).setTaskClass(WriteOne.class.getName())
        .setShuffleWrite(write.setShuffleId(0).setPartitions(3)).build());
    TaskUpdate u = fx.updates.poll(10, TimeUnit.SECONDS);
    assertNotNull(u, "the attempt ended");
    return u;
  }

  @Test
  void aPartitionOutsideTheStagesFailsTheTask() throws Exception {
    TaskUpdate u = run(ShuffleWrite.newBuilder().setPartitionerClass(PastTheEnd.class.getName()));
    assertEquals(TaskState.TASK_STATE_FAILED, u.getState());
    assertTrue(u.getError().contains("the partitioner " + PastTheEnd.class.getName() + " sent a key to partition 3,"
        + " outside 0 … 2 of the stage's 3"), u.getError());
  }

  @Test
  void aKeyOrderThatIsNoKeyOrderFailsTheTask() throws Exception {
    TaskUpdate u = run(ShuffleWrite.newBuilder().setKeyOrderClass(PastTheEnd.class.getName()));
    assertEquals(TaskState.TASK_STATE_FAILED, u.getState());
    assertTrue(u.getError().contains(PastTheEnd.class.getName() + " does not implement " + KeyOrder.class.getName()),
        u.getError());
  }

  @Test
  void aRangePartitionerWithoutSplitPointsFailsTheTaskAndOneWithThemSucceeds() throws Exception {
    TaskUpdate u = run(ShuffleWrite.newBuilder().setPartitionerClass(RangePartitioner.class.getName()));
    assertEquals(TaskState.TASK_STATE_FAILED, u.getState());
    assertTrue(u.getError().contains("the range partitioner has no split points"), u.getError());
    fx.close();
    u = run(ShuffleWrite.newBuilder().setPartitionerClass(RangePartitioner.class.getName())
        .setKeyOrderClass(KeyOrder.Descending.class.getName()).putAllShuffleParams(RangePartitioner.fromSample(
            java.util.List.of(new byte[] {9}, new byte[] {5}), 3, new KeyOrder.Descending())));
    assertEquals(TaskState.TASK_STATE_SUCCEEDED, u.getState(), u.getError());
    assertEquals(3, u.getPartitionBytesCount());
    assertTrue(u.getPartitionBytes(0) == 0 && u.getPartitionBytes(1) > 0 && u.getPartitionBytes(2) == 0,
        "key 7 is between the split points 9 and 5, in partition 1");
  }
}
