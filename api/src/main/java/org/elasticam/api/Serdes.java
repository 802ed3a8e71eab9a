package org.elasticam.api;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Ready encodings whose byte order is the type's natural order, so that a shuffle keyed by them
 * reaches its reducers in that order: numbers big-endian with the sign bit flipped (negative before
 * positive), doubles in IEEE order made unsigned, strings in UTF-8 (the order of their code points,
 * which is {@link String#compareTo}'s except for characters beyond the Basic Multilingual Plane).
 */
public final class Serdes {

  private Serdes() {}

  /** UTF-8; malformed bytes are refused rather than replaced, so a decoded key is the key written. */
  public static final Serde<String> STRING = new Serde<>() {
    @Override
    public byte[] encode(String value) {
      return value.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String decode(byte[] bytes) {
      try {
        return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT).decode(java.nio.ByteBuffer.wrap(bytes)).toString();
      } catch (CharacterCodingException e) {
        throw new IllegalArgumentException("not UTF-8: " + bytes.length + " bytes", e);
      }
    }
  };

  /** 8 bytes. */
  public static final Serde<Long> LONG = new Serde<>() {
    @Override
    public byte[] encode(Long value) {
      return bytesOf(value ^ Long.MIN_VALUE);
    }

    @Override
    public Long decode(byte[] bytes) {
      return longOf(bytes, "a long") ^ Long.MIN_VALUE;
    }
  };

  /** 4 bytes. */
  public static final Serde<Integer> INT = new Serde<>() {
    @Override
    public byte[] encode(Integer value) {
      int v = value ^ Integer.MIN_VALUE;
      return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    @Override
    public Integer decode(byte[] bytes) {
      if (bytes.length != 4) {
        throw new IllegalArgumentException("an int is 4 bytes, not " + bytes.length);
      }
      int v = (bytes[0] & 0xff) << 24 | (bytes[1] & 0xff) << 16 | (bytes[2] & 0xff) << 8 | bytes[3] & 0xff;
      return v ^ Integer.MIN_VALUE;
    }
  };

  /**
   * 8 bytes, in {@link Double#compare}'s order: -∞ … -0.0, 0.0 … +∞, then NaN (every NaN as the
   * canonical one, so they group together).
   */
  public static final Serde<Double> DOUBLE = new Serde<>() {
    @Override
    public byte[] encode(Double value) {
      long bits = Double.doubleToLongBits(value);
      // Positive: set the sign bit; negative: flip every bit. Then unsigned order is numeric order.
      return bytesOf(bits < 0 ? ~bits : bits | Long.MIN_VALUE);
    }

    @Override
    public Double decode(byte[] bytes) {
      long u = longOf(bytes, "a double");
      return Double.longBitsToDouble(u < 0 ? u & Long.MAX_VALUE : ~u);
    }
  };

  /** The bytes themselves, in unsigned byte order; decoding copies them. */
  public static final Serde<byte[]> BYTES = new Serde<>() {
    @Override
    public byte[] encode(byte[] value) {
      return value.clone();
    }

    @Override
    public byte[] decode(byte[] bytes) {
      return Arrays.copyOf(bytes, bytes.length);
    }
  };

  /** {@code v} big-endian: unsigned byte order is {@code v}'s unsigned order. */
  private static byte[] bytesOf(long v) {
    byte[] b = new byte[8];
    for (int i = 7; i >= 0; i--) {
      b[i] = (byte) v;
      v >>>= 8;
    }
    return b;
  }

  private static long longOf(byte[] bytes, String what) {
    if (bytes.length != 8) {
      throw new IllegalArgumentException(what + " is 8 bytes, not " + bytes.length);
    }
    long v = 0;
    for (byte b : bytes) {
      v = v << 8 | (b & 0xff);
    }
    return v;
  }
}
