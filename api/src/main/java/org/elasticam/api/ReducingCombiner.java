package org.elasticam.api;

import java.util.Iterator;
import java.util.function.Consumer;

/**
 * A {@link Combiner} of typed values that folds a key's values into one with an associative and
 * commutative operation; subclasses give the value's {@link Serde} and the operation.
 *
 * @param <V> the value type
 */
public abstract class ReducingCombiner<V> implements Combiner {

  private final Serde<V> values;

  protected ReducingCombiner(Serde<V> values) {
    this.values = values;
  }

  /** {@code a} and {@code b} as one value; the order in which values come is not defined. */
  protected abstract V reduce(V a, V b);

  @Override
  public final void combine(byte[] key, Iterable<byte[]> encoded, Consumer<byte[]> out) {
    Iterator<byte[]> it = encoded.iterator();
    V acc = values.decode(it.next());
    while (it.hasNext()) {
      acc = reduce(acc, values.decode(it.next()));
    }
    out.accept(values.encode(acc));
  }
}
