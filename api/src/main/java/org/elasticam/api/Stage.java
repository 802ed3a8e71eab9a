package org.elasticam.api;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A stage: tasks of one class, run after the stages it depends on.
 *
 * @param taskClass the binary name of a {@link Task} implementation, loaded in the executor from
 *     the executor's classpath or the user jar
 * @param shufflePartitions the reduce partitions its tasks write through
 *     {@link TaskContext#shuffleOutput()}, or 0 when they write no shuffle output. A stage that
 *     reads a parent's shuffle has exactly that many tasks: task {@code r} reads partition {@code r}.
 * @param shuffle how that output is partitioned, sorted and combined ({@link ShuffleSpec#DEFAULT}
 *     when null); anything but the default needs shuffle output to apply to
 * @param output the directory its tasks write files to ({@link TaskContext#attemptOutputDir()}),
 *     committed with the job; null when it writes none
 */
public record Stage(int id, String name, List<Integer> parents, String taskClass, List<TaskSpec> tasks,
    int shufflePartitions, ShuffleSpec shuffle, Output output) {

  /**
   * A directory of files the job writes. Each task attempt writes into a directory of its own; when
   * the attempt ends well, the driver lets one attempt of each task commit (its files become the
   * task's), and when the whole job has succeeded its tasks' files move into {@code dir}, followed
   * by an empty {@code _SUCCESS} file. A job that fails removes the directory and all it wrote.
   *
   * @param dir a path of any Hadoop file system; a relative one resolves against the submitter's
   *     working directory on {@code fs.defaultFS} (its home directory on HDFS, the directory the
   *     command ran in on a local file system), never the container's
   * @param overwrite when {@code dir} exists at submission: true removes it (at the job's start, in the
   *     ApplicationMaster); false refuses the job, with one line, before anything runs
   */
  public record Output(String dir, boolean overwrite) {
    public Output {
      Objects.requireNonNull(dir, "dir");
      if (dir.isBlank()) {
        throw new IllegalArgumentException("an output directory is blank");
      }
    }
  }

  public Stage {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(taskClass, "taskClass");
    shuffle = shuffle == null ? ShuffleSpec.DEFAULT : shuffle;
    parents = List.copyOf(parents);
    tasks = List.copyOf(tasks);
    if (id < 0) {
      throw new IllegalArgumentException("stage id < 0: " + id);
    }
    if (tasks.isEmpty()) {
      throw new IllegalArgumentException("stage " + id + " has no tasks");
    }
    if (shufflePartitions < 0) {
      throw new IllegalArgumentException("stage " + id + " writes " + shufflePartitions + " shuffle partitions");
    }
    if (shufflePartitions == 0 && !shuffle.isDefault()) {
      throw new IllegalArgumentException("stage " + id + " (" + name + ") sets a partitioner, key order, combiner or"
          + " shuffle parameters but writes no shuffle output: give it writesShuffle(partitions)");
    }
  }

  /** A stage with the default shuffle ({@link ShuffleSpec#DEFAULT}) and no output directory. */
  public Stage(int id, String name, List<Integer> parents, String taskClass, List<TaskSpec> tasks,
      int shufflePartitions) {
    this(id, name, parents, taskClass, tasks, shufflePartitions, ShuffleSpec.DEFAULT, null);
  }

  /** A stage with no output directory. */
  public Stage(int id, String name, List<Integer> parents, String taskClass, List<TaskSpec> tasks,
      int shufflePartitions, ShuffleSpec shuffle) {
    this(id, name, parents, taskClass, tasks, shufflePartitions, shuffle, null);
  }

  /** A stage that writes no shuffle output. */
  public Stage(int id, String name, List<Integer> parents, String taskClass, List<TaskSpec> tasks) {
    this(id, name, parents, taskClass, tasks, 0);
  }

  /** This stage with its output directory replaced (the ApplicationMaster makes it absolute). */
  public Stage withOutput(Output output) {
    return new Stage(id, name, parents, taskClass, tasks, shufflePartitions, shuffle, output);
  }

  public boolean writesShuffle() {
    return shufflePartitions > 0;
  }

  public static Builder builder(int id, String name, Class<? extends Task> taskClass) {
    return new Builder(id, name, taskClass.getName());
  }

  public static Builder builder(int id, String name, String taskClass) {
    return new Builder(id, name, taskClass);
  }

  /**
   * Builds a {@link Stage}; tasks default to {@link TaskSpec#EMPTY}. A stage that writes a shuffle
   * may also choose how its records are partitioned, sorted and combined, by naming classes the
   * executor loads like task classes (public, with a public no-argument constructor):
   *
   * <pre>{@code
   * Stage.builder(0, "count", CountMap.class).tasks(10)
   *     .writesShuffle(4)
   *     .keyOrder(KeyOrder.Descending.class)          // reducers see keys largest first
   *     .partitioner(RangePartitioner.class, RangePartitioner.fromSample(sample, 4, new KeyOrder.Descending()))
   *     .combiner(Sum.class)                          // partial sums on the map side
   *     .build();
   * }</pre>
   */
  public static final class Builder {
    private final int id;
    private final String name;
    private final String taskClass;
    private final List<Integer> parents = new ArrayList<>();
    private final List<TaskSpec> tasks = new ArrayList<>();
    private int shufflePartitions;
    private String partitionerClass = "";
    private String keyOrderClass = "";
    private String combinerClass = "";
    private final Map<String, String> shuffleParams = new HashMap<>();
    private Output output;

    private Builder(int id, String name, String taskClass) {
      this.id = id;
      this.name = name;
      this.taskClass = taskClass;
    }

    public Builder parents(Integer... ids) {
      parents.addAll(List.of(ids));
      return this;
    }

    /** {@code n} tasks with no parameters and no preferences. */
    public Builder tasks(int n) {
      for (int i = 0; i < n; i++) {
        tasks.add(TaskSpec.EMPTY);
      }
      return this;
    }

    /** Its tasks write shuffle output in {@code partitions} reduce partitions. */
    public Builder writesShuffle(int partitions) {
      this.shufflePartitions = partitions;
      return this;
    }

    /**
     * Sends each record to the partition {@code partitioner} gives its key (default:
     * {@link HashPartitioner}, today's {@code floorMod(Arrays.hashCode(key), partitions)}).
     */
    public Builder partitioner(Class<? extends Partitioner> partitioner) {
      this.partitionerClass = partitioner.getName();
      return this;
    }

    /** {@link #partitioner(Class)}, and adds {@code params} to the stage's shuffle parameters. */
    public Builder partitioner(Class<? extends Partitioner> partitioner, Map<String, String> params) {
      partitioner(partitioner);
      return shuffleParams(params);
    }

    /**
     * Sorts the shuffle's records by key in {@code order}, map side and reduce side (default:
     * {@link KeyOrder.Ascending}, unsigned byte order).
     */
    public Builder keyOrder(Class<? extends KeyOrder> order) {
      this.keyOrderClass = order.getName();
      return this;
    }

    /** Combines each map task's values of a key with {@code combiner} before they are shuffled (default: none). */
    public Builder combiner(Class<? extends Combiner> combiner) {
      this.combinerClass = combiner.getName();
      return this;
    }

    /** Adds parameters that the stage's partitioner, key order and combiner are configured with. */
    public Builder shuffleParams(Map<String, String> params) {
      shuffleParams.putAll(params);
      return this;
    }

    public Builder task(TaskSpec spec) {
      tasks.add(spec);
      return this;
    }

    /**
     * Its tasks write files to {@code dir} (see {@link Output}); the job is refused when {@code dir}
     * exists at submission.
     */
    public Builder writesOutput(String dir) {
      this.output = new Output(dir, false);
      return this;
    }

    /** As {@link #writesOutput}, but a {@code dir} that exists is removed when the job starts. */
    public Builder overwritesOutput(String dir) {
      this.output = new Output(dir, true);
      return this;
    }

    /** Adds each of {@code specs}, in order (for example the splits of an input). */
    public Builder tasks(Collection<TaskSpec> specs) {
      tasks.addAll(specs);
      return this;
    }

    public Stage build() {
      return new Stage(id, name, parents, taskClass, tasks, shufflePartitions,
          new ShuffleSpec(partitionerClass, keyOrderClass, combinerClass, shuffleParams), output);
    }
  }
}
