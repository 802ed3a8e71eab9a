package org.elasticam.api;

import java.util.Map;
import java.util.function.Consumer;

/**
 * Combines the values a map task wrote under one key into fewer values before they are shuffled,
 * as a sum of counts becomes one partial sum. A stage names its combiner with
 * {@link Stage.Builder#combiner}; the executor makes one instance per map task attempt (a public
 * no-argument constructor), calls {@link #configure} once, then {@link #combine} for runs of
 * records with equal key bytes: each time it spills its sorted buffer to disk, and again when it
 * merges its spills into the task's output. So a key's values may be combined any number of
 * times, in any grouping, including the combiner's own output: the reducers must get the same
 * result, up to how values are grouped, as they would without a combiner. A combiner whose output
 * is its input's partial reduction by an associative and commutative operation (sum, min, max,
 * count of counts) is safe.
 *
 * <p>For typed values, {@link ReducingCombiner} does the decoding: a sum of longs is
 *
 * <pre>{@code
 * public static final class Sum extends ReducingCombiner<Long> {
 *   public Sum() { super(Serdes.LONG); }
 *   protected Long reduce(Long a, Long b) { return a + b; }
 * }
 * }</pre>
 */
public interface Combiner {

  /**
   * Called once before the first {@link #combine}.
   *
   * @param params the stage's shuffle parameters ({@link Stage.Builder#shuffleParams})
   */
  default void configure(Map<String, String> params) {}

  /**
   * Combines one key's values.
   *
   * @param key the key, not to be changed
   * @param values at least one value; one pass; an array read is valid only during the call
   * @param out takes each combined value, all written under {@code key}; the array passed becomes
   *     the executor's and must not be changed afterwards
   */
  void combine(byte[] key, Iterable<byte[]> values, Consumer<byte[]> out);
}
