package org.elasticam.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.elasticam.api.Counter;
import org.elasticam.api.Counters;
import org.elasticam.api.ShuffleInput;
import org.elasticam.api.Task;
import org.elasticam.api.TaskContext;
import org.elasticam.rpc.proto.LaunchTask;
import org.elasticam.rpc.proto.MapOutputLocation;
import org.elasticam.rpc.proto.ShuffleRead;
import org.elasticam.rpc.proto.ShuffleWrite;
import org.elasticam.rpc.proto.TaskState;
import org.elasticam.rpc.proto.TaskUpdate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a task attempt reports of its counters: the records and bytes it wrote to its shuffle and
 * read from its parents', and its own counters summed over its threads; nothing from a failed
 * attempt. The task runner, a real shuffle writer, the executor's own shuffle server; the driver
 * is a queue.
 */
class TaskCountersTest {

  static final int RECORDS = 250;
  static final int THREADS = 4;
  static final int PER_THREAD = 200_000;

  /** Writes {@link #RECORDS} records of keys of different lengths; counts rows from several threads. */
  public static final class Map implements Task {
    @Override
    public void run(TaskContext ctx) throws Exception {
      for (int i = 0; i < RECORDS; i++) {
        ctx.shuffleOutput().write(("key-" + ctx.partition() + "-" + i).getBytes(StandardCharsets.UTF_8),
            new byte[i % 200]);
      }
      Counter rows = ctx.counter("rows.seen");
      // The threads add at the same time, each through its own lookup of the name.
      java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (int n = 0; n < THREADS; n++) {
        Thread t = new Thread(() -> {
          try {
            go.await();
          } catch (InterruptedException e) {
            return;
          }
          Counter mine = ctx.counter("rows.seen");
          for (int i = 0; i < PER_THREAD; i++) {
            mine.increment();
          }
        });
        t.start();
        threads.add(t);
      }
      go.countDown();
      for (Thread t : threads) {
        t.join();
      }
      rows.add(5);
      if (Boolean.parseBoolean(ctx.params().get("fail"))) {
        throw new IllegalStateException("failing on purpose");
      }
    }
  }

  /** Reads all of its partition of stage 0. */
  public static final class Reduce implements Task {
    @Override
    public void run(TaskContext ctx) throws Exception {
      ShuffleInput in = ctx.shuffleInput(0);
      while (in.next()) {
        in.key();
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
    executor = new TaskRunnerFixture(dirs, scratch, 2);
  }

  @AfterEach
  void stop() throws Exception {
    executor.close();
  }

  private TaskUpdate run(LaunchTask spec) throws InterruptedException {
    executor.runner.launch(spec);
    TaskUpdate u = executor.updates.poll(30, TimeUnit.SECONDS);
    assertNotNull(u, "the attempt ended");
    return u;
  }

  private static LaunchTask map(int index, boolean fail) {
    return LaunchTask.newBuilder().setTaskId(10 + index).setStageId(0).setPartition(index)
        .setTaskClass(Map.class.getName()).putParams("fail", String.valueOf(fail))
        .setShuffleWrite(ShuffleWrite.newBuilder().setShuffleId(0).setPartitions(2)).build();
  }

  @Test
  void mapsReportWhatTheyWroteAndReducersWhatTheyReadAndTheyAgree() throws Exception {
    long written = 0;
    for (int m = 0; m < 2; m++) {
      TaskUpdate u = run(map(m, false));
      assertEquals(TaskState.TASK_STATE_SUCCEEDED, u.getState(), u.getError());
      java.util.Map<String, Long> c = u.getCountersMap();
      assertEquals(RECORDS, c.get(Counters.SHUFFLE_RECORDS_WRITTEN));
      long blocks = u.getPartitionBytesList().stream().mapToLong(Long::longValue).sum();
      assertEquals(blocks, c.get(Counters.SHUFFLE_BYTES_WRITTEN), "the bytes of its partition blocks");
      assertEquals(THREADS * PER_THREAD + 5, c.get("rows.seen"), "summed over the task's threads");
      assertEquals(3, c.size(), "no read counters for a task that reads no shuffle: " + c);
      written += blocks;
    }
    int port = executor.shuffle.servedAt().port();
    long recordsRead = 0;
    long bytesRead = 0;
    for (int r = 0; r < 2; r++) {
      ShuffleRead read = ShuffleRead.newBuilder().setShuffleId(0).setMaps(2).addLocations(MapOutputLocation
          .newBuilder().setExecutorId("1").setHost("localhost").setPort(port).addMapIds(0).addMapIds(1)
          .addLocalDirs(dirs.toString())).build();
      TaskUpdate u = run(LaunchTask.newBuilder().setTaskId(20 + r).setStageId(1).setPartition(r)
          .setTaskClass(Reduce.class.getName()).addShuffleReads(read).build());
      assertEquals(TaskState.TASK_STATE_SUCCEEDED, u.getState(), u.getError());
      recordsRead += u.getCountersMap().get(Counters.SHUFFLE_RECORDS_READ);
      bytesRead += u.getCountersMap().get(Counters.SHUFFLE_BYTES_READ);
      assertEquals(2, u.getCountersMap().size(), u.getCountersMap().toString());
    }
    assertEquals(2 * RECORDS, recordsRead, "every record written is read once");
    assertEquals(written, bytesRead);
  }

  @Test
  void aFailedAttemptReportsNoCounters() throws Exception {
    TaskUpdate u = run(map(0, true));
    assertEquals(TaskState.TASK_STATE_FAILED, u.getState());
    assertEquals(java.util.Map.of(), u.getCountersMap());
  }

  @Test
  void namesAreBoundedAndTheShufflesAreTheExecutors() {
    TaskCounters c = new TaskCounters();
    assertThrows(IllegalArgumentException.class, () -> c.forTask(Counters.SHUFFLE_RECORDS_READ));
    assertThrows(IllegalArgumentException.class, () -> c.forTask(""));
    assertThrows(IllegalArgumentException.class, () -> c.forTask("x".repeat(Counters.MAX_NAME_CHARS + 1)));
    assertThrows(IllegalArgumentException.class, () -> c.forTask("a\nb"));
    c.forTask("x".repeat(Counters.MAX_NAME_CHARS)).add(1);
    c.forTask(Counters.INPUT_RECORDS).add(2);
    for (int i = 2; i < Counters.MAX_PER_TASK; i++) {
      c.forTask("c" + i).increment();
    }
    c.forTask("c2").increment();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.forTask("one.more"));
    assertTrue(e.getMessage().contains("at most " + Counters.MAX_PER_TASK), e.getMessage());
    assertEquals(Counters.MAX_PER_TASK, c.values().size());
    assertEquals(2L, c.values().get("c2"));
  }
}
