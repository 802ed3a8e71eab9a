package org.elasticam.executor;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.elasticam.executor.shuffle.ExecutorShuffle;
import org.elasticam.rpc.proto.TaskUpdate;
import org.elasticam.shuffle.client.ClientSettings;
import org.elasticam.time.Clock;

/**
 * A task runner as an executor has one: its own shuffle (local dirs {@code dirs}, served by itself)
 * and a task loader; the driver is a queue of the updates it sends and lets every commit through.
 */
final class TaskRunnerFixture implements AutoCloseable {

  final BlockingQueue<TaskUpdate> updates = new LinkedBlockingQueue<>();
  final ExecutorShuffle shuffle;
  final TaskLoader loader;
  final TaskRunner runner;

  /** One slot. */
  TaskRunnerFixture(Path dirs, Path scratch) throws Exception {
    this(dirs, scratch, 1);
  }

  TaskRunnerFixture(Path dirs, Path scratch, int slots) throws Exception {
    shuffle = ExecutorShuffle.start("application_1_0001", "1", "localhost",
        "an application secret of 32 byte".getBytes(StandardCharsets.US_ASCII), Optional.empty(), false,
        ClientSettings.defaults(), Map.of("LOCAL_DIRS", dirs.toString()), Clock.system());
    loader = new TaskLoader(Optional.empty());
    runner = new TaskRunner(slots, loader, "1", "localhost", scratch, Clock.system(), updates::add, shuffle,
        new CommitRequests(taskId -> { }, Duration.ofSeconds(5)));
  }

  @Override
  public void close() throws Exception {
    runner.close();
    shuffle.close();
    loader.close();
  }
}
