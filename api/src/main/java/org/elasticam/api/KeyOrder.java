package org.elasticam.api;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;

/**
 * The order a stage's shuffle records are sorted in by key: the map side sorts each spill in it,
 * reducers merge in it, and a reducer sees its partition's keys in it. A stage names its order
 * with {@link Stage.Builder#keyOrder}; without one it is {@link Ascending}, unsigned byte order,
 * which with the {@link Serdes} is each type's natural order. {@link Descending} reverses it.
 *
 * <p>An order must be total and consistent with the bytes: {@code compare(a, b) == 0} only when
 * {@code a} and {@code b} hold the same bytes, since records are grouped (by {@link KeyGroups} and
 * by a {@link Combiner}) where their key bytes are equal. The executor makes instances with a
 * public no-argument constructor and calls {@link #configure} once on each before comparing.
 */
public interface KeyOrder extends Comparator<byte[]> {

  /**
   * Called once before the first comparison.
   *
   * @param params the stage's shuffle parameters ({@link Stage.Builder#shuffleParams})
   */
  default void configure(Map<String, String> params) {}

  /** Unsigned byte order, byte by byte, a prefix first: the default. */
  final class Ascending implements KeyOrder {
    @Override
    public int compare(byte[] a, byte[] b) {
      return Arrays.compareUnsigned(a, b);
    }
  }

  /** The reverse of {@link Ascending}: with the {@link Serdes}, largest value first. */
  final class Descending implements KeyOrder {
    @Override
    public int compare(byte[] a, byte[] b) {
      return Arrays.compareUnsigned(b, a);
    }
  }
}
