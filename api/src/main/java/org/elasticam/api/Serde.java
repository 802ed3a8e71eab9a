package org.elasticam.api;

/**
 * How values of one type become the bytes a shuffle carries, and back. The shuffle sorts keys by
 * their bytes (unsigned, byte by byte), so a key type's encoding decides the order reducers see
 * its keys in: the ready ones in {@link Serdes} encode so that this order is the type's natural
 * one (numbers by value, strings by code point).
 *
 * <p>An encoding must be deterministic (equal values, equal bytes), since equal keys are grouped by
 * their bytes, and it must not keep the array it is given to decode: the shuffle reuses it.
 *
 * @param <T> the type of the values
 */
public interface Serde<T> {

  /** The bytes of {@code value}; a new array the caller may keep. */
  byte[] encode(T value);

  /**
   * The value {@code bytes} encode; reads the array only during the call.
   *
   * @throws IllegalArgumentException when the bytes are not an encoding of this type
   */
  T decode(byte[] bytes);
}
