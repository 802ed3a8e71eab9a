package org.elasticam.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Each ready encoding round-trips, and sorts (as the shuffle sorts: unsigned bytes) in its type's order. */
class SerdesTest {

  private static <T> void sortsNaturally(Serde<T> serde, List<T> values, Comparator<T> natural) {
    List<T> byBytes = new ArrayList<>(values);
    byBytes.sort((a, b) -> Arrays.compareUnsigned(serde.encode(a), serde.encode(b)));
    List<T> expected = new ArrayList<>(values);
    expected.sort(natural);
    assertEquals(expected, byBytes);
    for (T v : values) {
      assertEquals(0, natural.compare(v, serde.decode(serde.encode(v))), "round trip of " + v);
    }
  }

  @Test
  void longsSortByValue() {
    Random r = new Random(7);
    List<Long> values = new ArrayList<>(List.of(Long.MIN_VALUE, -1L, 0L, 1L, Long.MAX_VALUE, 255L, 256L, -256L));
    for (int i = 0; i < 2_000; i++) {
      values.add(r.nextLong() >> r.nextInt(64));
    }
    sortsNaturally(Serdes.LONG, values, Comparator.naturalOrder());
  }

  @Test
  void intsSortByValue() {
    Random r = new Random(11);
    List<Integer> values = new ArrayList<>(List.of(Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE));
    for (int i = 0; i < 2_000; i++) {
      values.add(r.nextInt() >> r.nextInt(32));
    }
    sortsNaturally(Serdes.INT, values, Comparator.naturalOrder());
  }

  @Test
  void doublesSortAsDoubleCompareDoes() {
    Random r = new Random(13);
    List<Double> values = new ArrayList<>(List.of(Double.NEGATIVE_INFINITY, -Double.MAX_VALUE, -1.5, -Double.MIN_VALUE,
        -0.0, 0.0, Double.MIN_VALUE, 1.5, Double.MAX_VALUE, Double.POSITIVE_INFINITY, Double.NaN));
    for (int i = 0; i < 2_000; i++) {
      values.add((r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(40) - 20));
    }
    sortsNaturally(Serdes.DOUBLE, values, Double::compare);
    assertArrayEquals(Serdes.DOUBLE.encode(Double.NaN), Serdes.DOUBLE.encode(Double.longBitsToDouble(0x7ff0000000000001L)),
        "every NaN groups with every other");
  }

  @Test
  void stringsSortByCodePoint() {
    List<String> values = List.of("", "a", "ab", "b", "B", "é", "z", "中文", "\uD83D\uDE00", "\uFFFD", "a\u0000");
    sortsNaturally(Serdes.STRING, values, (a, b) -> Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray()));
  }

  @Test
  void bytesAreTheirOwnEncodingAndAreCopied() {
    byte[] b = {1, (byte) 0xff, 0};
    byte[] enc = Serdes.BYTES.encode(b);
    assertArrayEquals(b, enc);
    b[0] = 9;
    assertEquals(1, enc[0], "the encoding does not share the caller's array");
    byte[] dec = Serdes.BYTES.decode(enc);
    enc[1] = 0;
    assertEquals((byte) 0xff, dec[1], "nor the decoding the shuffle's");
  }

  @Test
  void bytesThatAreNoEncodingAreRefusedWithTheReason() {
    assertEquals("a long is 8 bytes, not 3",
        assertThrows(IllegalArgumentException.class, () -> Serdes.LONG.decode(new byte[3])).getMessage());
    assertEquals("an int is 4 bytes, not 0",
        assertThrows(IllegalArgumentException.class, () -> Serdes.INT.decode(new byte[0])).getMessage());
    assertEquals("a double is 8 bytes, not 9",
        assertThrows(IllegalArgumentException.class, () -> Serdes.DOUBLE.decode(new byte[9])).getMessage());
    assertThrows(IllegalArgumentException.class, () -> Serdes.STRING.decode(new byte[] {(byte) 0xc3}),
        "a truncated UTF-8 sequence is not replaced by U+FFFD");
  }
}
