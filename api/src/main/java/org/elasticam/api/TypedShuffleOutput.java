package org.elasticam.api;

import java.io.IOException;

/**
 * A task's shuffle output written as typed records: each key and value encoded by its
 * {@link Serde}, then written as {@link ShuffleOutput#write} writes bytes (the stage's partitioner
 * and key order see the encoded key: by default its hash, and its encoding's order).
 *
 * <pre>{@code
 * TypedShuffleOutput<String, Long> out = TypedShuffleOutput.of(ctx.shuffleOutput(), Serdes.STRING, Serdes.LONG);
 * out.write(word, 1L);
 * }</pre>
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public final class TypedShuffleOutput<K, V> {

  private final ShuffleOutput out;
  private final Serde<K> keys;
  private final Serde<V> values;

  private TypedShuffleOutput(ShuffleOutput out, Serde<K> keys, Serde<V> values) {
    this.out = out;
    this.keys = keys;
    this.values = values;
  }

  public static <K, V> TypedShuffleOutput<K, V> of(ShuffleOutput out, Serde<K> keys, Serde<V> values) {
    return new TypedShuffleOutput<>(out, keys, values);
  }

  public void write(K key, V value) throws IOException {
    // Serde.encode returns a new array: the shuffle may keep it without copying.
    out.writeOwned(keys.encode(key), values.encode(value));
  }

  /** The partition {@link #write} sends {@code key} to. */
  public int partitionOf(K key) {
    return out.partitionOf(keys.encode(key));
  }
}
