package org.elasticam.api;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A reduce task's shuffle input as groups: each distinct key once, in the parent stage's
 * {@link KeyOrder} (by default the order of its encoding), with the values written under it (or,
 * when the parent has a {@link Combiner}, what it combined them into). A cursor: {@link #next()} moves to the next key, {@link #key()}
 * reads it, {@link #values()} iterates its values once (values not read are skipped by the next
 * {@link #next()}). Nothing is held in memory beyond one record, whatever a group's size.
 *
 * <pre>{@code
 * KeyGroups<String, Long> groups = KeyGroups.of(ctx.shuffleInput(0), Serdes.STRING, Serdes.LONG);
 * while (groups.next()) {
 *   long sum = 0;
 *   for (long n : groups.values()) sum += n;
 *   out.println(groups.key() + "," + sum);
 * }
 * }</pre>
 *
 * <p>A block that cannot be fetched makes {@link #next()} throw its {@link IOException}, and the
 * values' iterator an {@link UncheckedIOException} with it as the cause: let either propagate out
 * of the task, so the driver can re-run the map output that was lost.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public final class KeyGroups<K, V> {

  private final ShuffleInput in;
  private final Serde<K> keys;
  private final Serde<V> values;
  /** The current group's key bytes (a copy), or null before the first group and after the last. */
  private byte[] groupKey;
  private K decodedKey;
  /** Whether the input's current record is the next unread value of the current group. */
  private boolean valuePending;
  /** Whether the input's current record starts a group not yet reached; false at the end. */
  private boolean recordAhead;
  private boolean started;
  /** The input said it has no more records: it is not asked again. */
  private boolean inputDone;
  private boolean ended;
  private boolean valuesTaken;

  private KeyGroups(ShuffleInput in, Serde<K> keys, Serde<V> values) {
    this.in = in;
    this.keys = keys;
    this.values = values;
  }

  public static <K, V> KeyGroups<K, V> of(ShuffleInput in, Serde<K> keys, Serde<V> values) {
    return new KeyGroups<>(in, keys, values);
  }

  /** Moves to the next key, skipping what is left of the current one's values; false at the end. */
  public boolean next() throws IOException {
    if (ended) {
      return false;
    }
    if (!started) {
      started = true;
      recordAhead = in.next();
      inputDone = !recordAhead;
    } else {
      // Skip the rest of the current group.
      while (valuePending || advanceWithinGroup()) {
        valuePending = false;
      }
    }
    if (!recordAhead) {
      ended = true;
      groupKey = null;
      decodedKey = null;
      return false;
    }
    byte[] k = in.key();
    groupKey = Arrays.copyOf(k, k.length);
    decodedKey = keys.decode(groupKey);
    recordAhead = false;
    valuePending = true;
    valuesTaken = false;
    return true;
  }

  /** The current key. */
  public K key() {
    if (groupKey == null) {
      throw new IllegalStateException(started ? "past the last key" : "call next() first");
    }
    return decodedKey;
  }

  /**
   * The current key's values, in the order they arrive (no further order); one pass, once per key.
   */
  public Iterable<V> values() {
    if (groupKey == null) {
      throw new IllegalStateException(started ? "past the last key" : "call next() first");
    }
    if (valuesTaken) {
      throw new IllegalStateException("the values of a key can be read once");
    }
    valuesTaken = true;
    return () -> new Iterator<>() {
      @Override
      public boolean hasNext() {
        if (valuePending) {
          return true;
        }
        try {
          valuePending = advanceWithinGroup();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        return valuePending;
      }

      @Override
      public V next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        valuePending = false;
        return values.decode(in.value());
      }
    };
  }

  /**
   * Moves the input past the current value: true when the record reached belongs to the current
   * group; false at a new key (remembered for {@link #next()}) or at the end.
   */
  private boolean advanceWithinGroup() throws IOException {
    if (recordAhead || groupKey == null || inputDone) {
      return false;
    }
    if (!in.next()) {
      inputDone = true;
      return false;
    }
    if (Arrays.equals(in.key(), groupKey)) {
      return true;
    }
    recordAhead = true;
    return false;
  }
}
