package org.elasticam.api;

import java.util.Map;

/**
 * Which reduce partition a shuffle record goes to, from its key's bytes. A stage names its
 * partitioner with {@link Stage.Builder#partitioner(Class, Map)}; without one it is the
 * {@link HashPartitioner}. The executor makes one instance per map task attempt (a public
 * no-argument constructor, from the user jar or the executor's classpath), calls
 * {@link #configure} once, then {@link #partition} for each record the task writes, from the
 * task's thread.
 *
 * <p>A partitioner must be deterministic: every attempt of every map task must send a key to the
 * same partition, or a re-run map would scatter it differently from the first. A partition outside
 * {@code 0 … partitions − 1} fails the task.
 */
public interface Partitioner {

  /**
   * Called once before the first {@link #partition}.
   *
   * @param params the stage's shuffle parameters ({@link Stage.Builder#shuffleParams})
   * @param order the stage's key order: what "before" means for a partitioner of ranges
   * @throws IllegalArgumentException when the parameters are wrong; the task fails with its message
   */
  default void configure(Map<String, String> params, KeyOrder order) {}

  /** The partition of {@code key}, in {@code 0 … partitions − 1}; must not change the array. */
  int partition(byte[] key, int partitions);
}
