package org.elasticam.api;

import java.util.ArrayList;
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
 */
public record Stage(int id, String name, List<Integer> parents, String taskClass, List<TaskSpec> tasks,
    int shufflePartitions, ShuffleSpec shuffle) {

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

  /** A stage with the default shuffle ({@link ShuffleSpec#DEFAULT}). */
  public Stage(int id, String name, List<Integer> parents, String taskClass, List<TaskSpec> tasks,
      int shufflePartitions) {
    this(id, name, parents, taskClass, tasks, shufflePartitions, ShuffleSpec.DEFAULT);
  }

  /** A stage that writes no shuffle output. */
  public Stage(int id, String name, List<Integer> parents, String taskClass, List<TaskSpec> tasks) {
    this(id, name, parents, taskClass, tasks, 0);
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

    public Stage build() {
      return new Stage(id, name, parents, taskClass, tasks, shufflePartitions,
          new ShuffleSpec(partitionerClass, keyOrderClass, combinerClass, shuffleParams));
    }
  }
}
