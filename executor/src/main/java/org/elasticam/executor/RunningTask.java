package org.elasticam.executor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.elasticam.api.Counter;
import org.elasticam.api.Counters;
import org.elasticam.api.KeyOrder;
import org.elasticam.api.ShuffleInput;
import org.elasticam.api.ShuffleOutput;
import org.elasticam.api.TaskContext;
import org.elasticam.executor.shuffle.BlockBuffer;
import org.elasticam.executor.shuffle.CountedShuffle;
import org.elasticam.executor.shuffle.ExecutorShuffle;
import org.elasticam.executor.shuffle.ShuffleFunctions;
import org.elasticam.executor.shuffle.ShuffleReader;
import org.elasticam.executor.shuffle.SortedMerge;
import org.elasticam.executor.shuffle.SortingShuffleWriter;
import org.elasticam.io.commit.OutputCommit;
import org.elasticam.rpc.proto.LaunchTask;
import org.elasticam.rpc.proto.ShuffleRead;
import org.elasticam.rpc.proto.ShuffleWrite;
import org.slf4j.LoggerFactory;

/**
 * One task attempt in this executor: its context, its shuffle writer and inputs, its counters, and
 * the thread to interrupt on a kill.
 */
final class RunningTask implements TaskContext {

  private final LaunchTask spec;
  private final String executorId;
  private final String host;
  private final Path scratch;
  private boolean scratchMade;
  private final ExecutorShuffle shuffle;
  private final long shuffleMemoryBytes;
  private final List<AutoCloseable> inputs = new ArrayList<>();
  private SortingShuffleWriter writer;
  /** The writer as the task sees it: counting what it writes. */
  private ShuffleOutput output;
  private final TaskCounters counters = new TaskCounters();
  /** The stage's partitioner, key order and combiner, once loaded; null when it writes no shuffle. */
  private ShuffleFunctions writes;
  /** By shuffle id: the key order each parent's maps sorted in. */
  private final Map<Integer, KeyOrder> readOrders = new HashMap<>();
  private volatile boolean killed;
  private volatile Thread thread;
  private final CommitRequests commits;
  /** The driver said another attempt publishes this task's output: this one ends as killed. */
  private volatile boolean commitDenied;
  /** The driver let this attempt commit: asking again (the task did, then the runner) needs no round trip. */
  private volatile boolean commitAllowed;

  /**
   * @param shuffle the executor's shuffle, or null when it has none (no LOCAL_DIRS)
   * @param shuffleMemoryBytes what this task may hold in memory for its shuffle writer and, apart,
   *     for each shuffle input, before spilling to disk
   */
  RunningTask(LaunchTask spec, String executorId, String host, Path scratch, ExecutorShuffle shuffle,
      long shuffleMemoryBytes, CommitRequests commits) {
    this.commits = commits;
    this.spec = spec;
    this.executorId = executorId;
    this.host = host;
    this.scratch = scratch;
    this.shuffle = shuffle;
    this.shuffleMemoryBytes = shuffleMemoryBytes;
  }

  long taskId() {
    return spec.getTaskId();
  }

  LaunchTask spec() {
    return spec;
  }

  /**
   * Loads and configures the classes the task's shuffles name, before the task runs.
   *
   * @throws ReflectiveOperationException when one is missing or of the wrong type
   * @throws IllegalArgumentException when one refuses the stage's shuffle parameters
   */
  void loadShuffleClasses(TaskLoader loader) throws ReflectiveOperationException {
    if (spec.hasShuffleWrite()) {
      writes = loader.shuffleFunctions(spec.getShuffleWrite());
    }
    for (ShuffleRead r : spec.getShuffleReadsList()) {
      readOrders.put(r.getShuffleId(), loader.keyOrder(r.getKeyOrderClass(), r.getShuffleParamsMap()));
    }
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

  /**
   * Made on the first call, not for every attempt: most tasks never ask, and making, walking and
   * removing a directory for each was most of a short task's cost on the executor (about 1 ms of
   * 1.3–1.5 ms per 1 ms task on the embedded cluster: BENCHMARKS.md, "A short task's round trip").
   */
  @Override
  public synchronized Path scratchDir() {
    if (!scratchMade) {
      try {
        Files.createDirectories(scratch);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot make the task's scratch directory " + scratch, e);
      }
      scratchMade = true;
    }
    return scratch;
  }

  /** Where the scratch directory is, whether or not anything made it (a spill makes it too). */
  Path scratchPath() {
    return scratch;
  }

  @Override
  public boolean isKilled() {
    return killed;
  }

  @Override
  public String attemptOutputDir() {
    if (!writesOutput()) {
      throw new IllegalStateException("stage " + stageId() + " declares no output directory"
          + " (Stage.Builder.writesOutput)");
    }
    return attemptDir().toString();
  }

  boolean writesOutput() {
    return !spec.getOutputDir().isEmpty();
  }

  org.apache.hadoop.fs.Path outputDir() {
    return new org.apache.hadoop.fs.Path(spec.getOutputDir());
  }

  org.apache.hadoop.fs.Path attemptDir() {
    return OutputCommit.attemptDir(outputDir(), spec.getStageId(), partition(), attempt(), executorId);
  }

  @Override
  public boolean canCommit() throws java.io.IOException {
    if (commitDenied) {
      return false;
    }
    if (commitAllowed) {
      return true;
    }
    boolean allowed = commits.ask(spec.getTaskId());
    if (!allowed) {
      commitDenied = true;
    } else {
      commitAllowed = true;
    }
    return allowed;
  }

  boolean commitDenied() {
    return commitDenied;
  }

  @Override
  public ShuffleOutput shuffleOutput() {
    if (!spec.hasShuffleWrite()) {
      throw new IllegalStateException("stage " + spec.getStageId() + " writes no shuffle output");
    }
    if (writer == null) {
      ShuffleWrite w = spec.getShuffleWrite();
      writer = new SortingShuffleWriter(requireShuffle().localDirs(), w.getShuffleId(), spec.getPartition(),
          w.getPartitions(), shuffleMemoryBytes, scratch.resolve("shuffle-out"),
          writes == null ? ShuffleFunctions.DEFAULT : writes);
      output = CountedShuffle.output(writer, counters.builtIn(Counters.SHUFFLE_RECORDS_WRITTEN),
          counters.builtIn(Counters.SHUFFLE_BYTES_WRITTEN));
    }
    return output;
  }

  @Override
  public ShuffleInput shuffleInput(int parentStageId) throws IOException {
    // Below the batch's base, an id is the batch's own, as the streaming job named its stages.
    int shuffleId = parentStageId >= 0 && parentStageId < spec.getStageIdBase()
        ? spec.getStageIdBase() + parentStageId : parentStageId;
    ShuffleRead read = spec.getShuffleReadsList().stream().filter(r -> r.getShuffleId() == shuffleId).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("stage " + parentStageId + " is not a parent of stage "
            + spec.getStageId() + " that writes shuffle output"));
    BlockBuffer buffer = new BlockBuffer(shuffleMemoryBytes, scratch.resolve("shuffle-in-" + parentStageId));
    inputs.add(buffer);
    new ShuffleReader(requireShuffle()).gather(read, spec.getPartition(), buffer);
    SortedMerge merge = SortedMerge.of(buffer.sources(), readOrders.getOrDefault(shuffleId,
        ShuffleFunctions.DEFAULT.order()));
    inputs.add(merge);
    return CountedShuffle.input(merge, counters.builtIn(Counters.SHUFFLE_RECORDS_READ),
        counters.builtIn(Counters.SHUFFLE_BYTES_READ));
  }

  @Override
  public Counter counter(String name) {
    return counters.forTask(name);
  }

  /** Every counter the attempt used, by name: the task's own and the shuffle's. */
  Map<String, Long> counterValues() {
    return counters.values();
  }

  private ExecutorShuffle requireShuffle() {
    if (shuffle == null) {
      throw new IllegalStateException("this executor has no shuffle (it runs outside a YARN container's LOCAL_DIRS)");
    }
    return shuffle;
  }

  /** After a successful run: commits the shuffle output, if any; the byte length of each partition. */
  long[] commitShuffleOutput() throws IOException {
    if (!spec.hasShuffleWrite()) {
      return new long[0];
    }
    shuffleOutput();
    return writer.commit(spec.getShuffleWrite().getReplace());
  }

  /** Discards an uncommitted writer and the inputs' buffers. */
  void releaseShuffle() {
    if (writer != null) {
      try {
        writer.close();
      } catch (IOException e) {
        LoggerFactory.getLogger(RunningTask.class).warn("Task {}: could not discard its shuffle output: {}",
            taskId(), e.toString());
      }
    }
    for (AutoCloseable c : inputs) {
      try {
        c.close();
      } catch (Exception e) {
        LoggerFactory.getLogger(RunningTask.class).debug("Task {}: closing a shuffle input: {}", taskId(),
            e.toString());
      }
    }
    inputs.clear();
  }
}
