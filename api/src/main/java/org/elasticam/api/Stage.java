package org.elasticam.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A stage: tasks of one class, run after the stages it depends on.
 *
 * @param taskClass the binary name of a {@link Task} implementation, loaded in the executor from
 *     the executor's classpath or the user jar
 * @param shufflePartitions the reduce partitions its tasks write through
 *     {@link TaskContext#shuffleOutput()}, or 0 when they write no shuffle output. A stage that
 *     reads a parent's shuffle has exactly that many tasks: task {@code r} reads partition {@code r}.
 */
public record Stage(int id, String name, List<Integer> parents, String taskClass, List<TaskSpec> tasks,
    int shufflePartitions) {

  public Stage {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(taskClass, "taskClass");
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
  }

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

  /** Builds a {@link Stage}; tasks default to {@link TaskSpec#EMPTY}. */
  public static final class Builder {
    private final int id;
    private final String name;
    private final String taskClass;
    private final List<Integer> parents = new ArrayList<>();
    private final List<TaskSpec> tasks = new ArrayList<>();
    private int shufflePartitions;

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

    public Builder task(TaskSpec spec) {
      tasks.add(spec);
      return this;
    }

    public Stage build() {
      return new Stage(id, name, parents, taskClass, tasks, shufflePartitions);
    }
  }
}
