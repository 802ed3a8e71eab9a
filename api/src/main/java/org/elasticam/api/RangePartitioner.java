package org.elasticam.api;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * A partitioner for a total order: {@code partitions − 1} split points, in the stage's key order,
 * cut the keys into ranges, and partition {@code p} gets the keys from split point {@code p − 1}
 * (included) to split point {@code p} (excluded). Every key of partition {@code p} then comes
 * before every key of partition {@code p + 1}, so the reducers' outputs, taken in partition order,
 * are one sorted whole. Split points are best taken from a sample of the keys, so that the
 * partitions get about as many records each:
 *
 * <pre>{@code
 * List<byte[]> sample = ...;  // some keys, encoded as the map tasks will write them
 * Stage.builder(0, "sort", SortMap.class).writesShuffle(8)
 *     .keyOrder(KeyOrder.Descending.class)
 *     .partitioner(RangePartitioner.class, RangePartitioner.fromSample(sample, 8, new KeyOrder.Descending()))
 * }</pre>
 *
 * <p>The split points travel as the shuffle parameter {@value #SPLITS}; {@link #configure} fails
 * the task when they are not in the stage's key order or are not {@code partitions − 1} of them.
 */
public final class RangePartitioner implements Partitioner {

  /** The shuffle parameter holding the split points: each in URL-safe Base64, each followed by a comma. */
  public static final String SPLITS = "elasticam.range.splits";

  private byte[][] splits;
  private KeyOrder order;

  @Override
  public void configure(Map<String, String> params, KeyOrder order) {
    String s = params.get(SPLITS);
    if (s == null) {
      throw new IllegalArgumentException("the range partitioner has no split points: give the stage the shuffle"
          + " parameters of RangePartitioner.fromSample");
    }
    this.splits = decode(s);
    this.order = order;
    for (int i = 1; i < splits.length; i++) {
      if (order.compare(splits[i - 1], splits[i]) > 0) {
        throw new IllegalArgumentException("the range partitioner's split points are not in the stage's key order ("
            + order.getClass().getName() + "): build them with the same order the stage sorts in");
      }
    }
  }

  @Override
  public int partition(byte[] key, int partitions) {
    if (splits == null) {
      throw new IllegalStateException("the range partitioner is not configured");
    }
    if (splits.length != partitions - 1) {
      throw new IllegalArgumentException("the range partitioner has " + splits.length + " split point(s), for "
          + (splits.length + 1) + " partitions, but the stage writes " + partitions);
    }
    // The first split point after the key; keys equal to a split point go to the range it starts.
    int lo = 0;
    int hi = splits.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (order.compare(splits[mid], key) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * The shuffle parameters of a range partitioner whose {@code partitions} ranges each hold about
   * as many of {@code sample}'s keys, in unsigned byte order ({@link KeyOrder.Ascending}).
   */
  public static Map<String, String> fromSample(List<byte[]> sample, int partitions) {
    return fromSample(sample, partitions, new KeyOrder.Ascending());
  }

  /**
   * The shuffle parameters of a range partitioner whose {@code partitions} ranges each hold about
   * as many of {@code sample}'s keys, in {@code order}, which must be the stage's key order.
   *
   * @param sample keys in any order (repeats welcome: a frequent key weighs more); not changed
   * @throws IllegalArgumentException when {@code partitions < 1}, or the sample is empty and there is more than one
   */
  public static Map<String, String> fromSample(List<byte[]> sample, int partitions, KeyOrder order) {
    if (partitions < 1) {
      throw new IllegalArgumentException("a shuffle has at least one partition: " + partitions);
    }
    if (sample.isEmpty() && partitions > 1) {
      throw new IllegalArgumentException("no sample keys to cut " + partitions + " ranges from");
    }
    List<byte[]> sorted = new ArrayList<>(sample);
    sorted.sort(order);
    StringBuilder s = new StringBuilder();
    for (int i = 1; i < partitions; i++) {
      byte[] split = sorted.get((int) ((long) i * sorted.size() / partitions));
      s.append(Base64.getUrlEncoder().withoutPadding().encodeToString(split)).append(',');
    }
    return Map.of(SPLITS, s.toString());
  }

  private static byte[][] decode(String s) {
    if (s.isEmpty()) {
      return new byte[0][];
    }
    if (!s.endsWith(",")) {
      throw new IllegalArgumentException("the range partitioner's split points do not end with a comma: " + SPLITS
          + " is not RangePartitioner.fromSample's");
    }
    String[] parts = s.substring(0, s.length() - 1).split(",", -1);
    byte[][] out = new byte[parts.length][];
    for (int i = 0; i < parts.length; i++) {
      out[i] = Base64.getUrlDecoder().decode(parts[i]);
    }
    return out;
  }
}
