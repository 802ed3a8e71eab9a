package org.elasticam.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Grouping a sorted shuffle input by key, on an input that behaves as the executor's does. */
class KeyGroupsTest {

  /**
   * Records in order, as the shuffle delivers them; key() and value() return one reused buffer (as
   * the real reader may), and asking for more after the end is an error, as is reading past it.
   */
  private static final class Input implements ShuffleInput {
    private final List<byte[][]> records = new ArrayList<>();
    private int at = -1;
    private boolean over;
    private IOException failAt;
    private int failIndex = -1;
    private final byte[] keyBuffer = new byte[64];
    private final byte[] valueBuffer = new byte[64];
    int nextCalls;

    Input add(String key, long value) {
      records.add(new byte[][] {Serdes.STRING.encode(key), Serdes.LONG.encode(value)});
      return this;
    }

    Input failingAt(int index, IOException e) {
      failIndex = index;
      failAt = e;
      return this;
    }

    @Override
    public boolean next() throws IOException {
      if (over) {
        throw new IllegalStateException("next() after the end");
      }
      nextCalls++;
      at++;
      if (at == failIndex) {
        throw failAt;
      }
      over = at >= records.size();
      return !over;
    }

    @Override
    public byte[] key() {
      return reuse(keyBuffer, records.get(at)[0]);
    }

    @Override
    public byte[] value() {
      return reuse(valueBuffer, records.get(at)[1]);
    }

    /** A fresh array of the right length, but the previous contents are scribbled over. */
    private static byte[] reuse(byte[] buffer, byte[] contents) {
      java.util.Arrays.fill(buffer, (byte) 0x5a);
      return java.util.Arrays.copyOf(contents, contents.length);
    }
  }

  private static Map<String, List<Long>> all(KeyGroups<String, Long> g) throws IOException {
    Map<String, List<Long>> out = new LinkedHashMap<>();
    while (g.next()) {
      List<Long> vs = new ArrayList<>();
      g.values().forEach(vs::add);
      out.put(g.key(), vs);
    }
    return out;
  }

  @Test
  void eachKeyOnceWithItsValuesInArrivalOrder() throws IOException {
    Input in = new Input().add("a", 1).add("a", 2).add("b", 5).add("c", 7).add("c", 8).add("c", 9);
    assertEquals(Map.of("a", List.of(1L, 2L), "b", List.of(5L), "c", List.of(7L, 8L, 9L)),
        all(KeyGroups.of(in, Serdes.STRING, Serdes.LONG)));
    assertEquals(List.of("a", "b", "c"), new ArrayList<>(all(KeyGroups.of(
        new Input().add("a", 1).add("b", 2).add("c", 3), Serdes.STRING, Serdes.LONG)).keySet()));
  }

  @Test
  void valuesNotReadAreSkippedAndTheInputIsNotAskedPastItsEnd() throws IOException {
    Input in = new Input().add("a", 1).add("a", 2).add("a", 3).add("b", 4).add("c", 5).add("c", 6);
    KeyGroups<String, Long> g = KeyGroups.of(in, Serdes.STRING, Serdes.LONG);
    assertTrue(g.next());
    assertEquals("a", g.key());
    assertEquals(1L, g.values().iterator().next(), "one value read, two left unread");
    assertTrue(g.next());
    assertEquals("b", g.key(), "the rest of a was skipped");
    assertTrue(g.next());
    assertEquals("c", g.key());
    List<Long> cs = new ArrayList<>();
    g.values().forEach(cs::add);
    assertEquals(List.of(5L, 6L), cs);
    assertFalse(g.next());
    assertFalse(g.next(), "still at the end; the input is not asked again");
    assertEquals(7, in.nextCalls, "six records and one end");
  }

  @Test
  void anEmptyInputHasNoKeys() throws IOException {
    KeyGroups<String, Long> g = KeyGroups.of(new Input(), Serdes.STRING, Serdes.LONG);
    assertThrows(IllegalStateException.class, g::key, "before next()");
    assertFalse(g.next());
    assertThrows(IllegalStateException.class, g::values, "past the end");
  }

  @Test
  void aKeysValuesAreReadOnce() throws IOException {
    KeyGroups<String, Long> g = KeyGroups.of(new Input().add("a", 1), Serdes.STRING, Serdes.LONG);
    g.next();
    g.values();
    assertThrows(IllegalStateException.class, g::values);
  }

  @Test
  void aLostBlockPropagatesFromNextAndFromTheValues() {
    IOException lost = new IOException("cannot fetch shuffle 0");
    KeyGroups<String, Long> g1 = KeyGroups.of(new Input().add("a", 1).add("b", 2).failingAt(1, lost), Serdes.STRING,
        Serdes.LONG);
    assertSame(lost, assertThrows(IOException.class, () -> {
      g1.next();
      g1.next();
    }));
    KeyGroups<String, Long> g2 = KeyGroups.of(new Input().add("a", 1).add("a", 2).failingAt(1, lost), Serdes.STRING,
        Serdes.LONG);
    UncheckedIOException u = assertThrows(UncheckedIOException.class, () -> {
      g2.next();
      g2.values().forEach(v -> { });
    });
    assertSame(lost, u.getCause(), "the cause a task's runner looks for");
  }

  @Test
  void aLargeGroupIsStreamedNotHeld() throws IOException {
    Input in = new Input();
    for (int i = 0; i < 100_000; i++) {
      in.add("k", i);
    }
    in.add("l", -1);
    KeyGroups<String, Long> g = KeyGroups.of(in, Serdes.STRING, Serdes.LONG);
    assertTrue(g.next());
    long sum = 0;
    for (long v : g.values()) {
      sum += v;
    }
    assertEquals(100_000L * 99_999 / 2, sum);
    assertTrue(g.next());
    assertEquals("l", g.key());
  }
}
