package org.elasticam.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.util.ReflectionUtils;
import org.elasticam.api.Serde;

/**
 * Hadoop {@link Writable}s as shuffle records, for jobs that have their record types already: the
 * bytes are what {@code write} writes, a value is read back into a new instance. Their order is
 * those bytes' (unsigned), which is seldom the type's own: {@code Text} starts with its length, so
 * a shorter text sorts first. Keys a job wants in their natural order are better written with
 * {@link org.elasticam.api.Serdes}.
 *
 * @param <T> a Writable with a constructor without arguments
 */
public final class WritableSerde<T extends Writable> implements Serde<T> {

  private final Class<T> type;

  private WritableSerde(Class<T> type) {
    this.type = type;
  }

  public static <T extends Writable> WritableSerde<T> of(Class<T> type) {
    return new WritableSerde<>(type);
  }

  @Override
  public byte[] encode(T value) {
    DataOutputBuffer out = new DataOutputBuffer();
    try {
      value.write(out);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write a " + type.getName(), e);
    }
    return Arrays.copyOf(out.getData(), out.getLength());
  }

  /** @throws IllegalArgumentException when the bytes are not one whole value of the type */
  @Override
  public T decode(byte[] bytes) {
    T value = ReflectionUtils.newInstance(type, null);
    DataInputBuffer in = new DataInputBuffer();
    in.reset(bytes, bytes.length);
    try {
      value.readFields(in);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(bytes.length + " bytes are not a " + type.getName() + ": " + e, e);
    }
    if (in.getPosition() != bytes.length) {
      throw new IllegalArgumentException(bytes.length + " bytes hold a " + type.getName() + " of "
          + in.getPosition() + " and more");
    }
    return value;
  }
}
