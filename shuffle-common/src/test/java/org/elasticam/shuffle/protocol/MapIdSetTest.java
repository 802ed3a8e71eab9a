package org.elasticam.shuffle.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class MapIdSetTest {

  @Test
  void contiguousIdsEncodeAsRangesAndSparseDenseOnesAsABitmap() {
    assertEquals("r0-99.105.107-110", MapIdSet.of(IntStream.concat(IntStream.range(0, 100),
        IntStream.of(105, 107, 108, 109, 110)).toArray()).encode());
    int[] everyOther = IntStream.range(0, 1000).map(i -> 1000 + 2 * i).toArray();
    String bitmap = MapIdSet.of(everyOther).encode();
    assertTrue(bitmap.startsWith("b1000~"), bitmap);
    assertTrue(bitmap.length() < 350, "2000-id span in about 2000/6 characters: " + bitmap.length());
  }

  @Test
  void bothFormsRoundTrip() {
    SplittableRandom r = new SplittableRandom(7);
    for (int trial = 0; trial < 200; trial++) {
      int[] ids = r.ints(r.nextInt(1, 300), 0, r.nextInt(1, 5000)).toArray();
      MapIdSet set = MapIdSet.of(ids);
      MapIdSet back = MapIdSet.decode(set.encode(), 10_000);
      assertEquals(set, back);
      assertArrayEquals(IntStream.of(ids).distinct().sorted().toArray(), back.toArray());
    }
  }

  @Test
  void malformedTextIsRefused() {
    for (String bad : List.of("", "x1", "r1-", "r-1", "r5-3", "r1.1", "r3.2", "r01", "r1..2", "b", "b5", "b5~",
        "b5~!!", "b~AA", "r99999999999", "r1-2147483648")) {
      assertThrows(IllegalArgumentException.class, () -> MapIdSet.decode(bad, 1000), bad);
    }
  }

  @Test
  void aHugeRangeIsRefusedByCountBeforeAnythingIsExpanded() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> MapIdSet.decode("r0-2147483646", 4096));
    assertTrue(e.getMessage().contains("more than 4096"), e.getMessage());
    assertEquals(4096, MapIdSet.decode("r0-4095", 4096).size());
    assertThrows(IllegalArgumentException.class, () -> MapIdSet.decode("b0~" + "_".repeat(1000), 4096));
  }

  @Test
  void splitKeepsEveryPartWithinBothCapsAndLosesNothing() {
    int[] ids = new SplittableRandom(3).ints(20_000, 0, 2_000_000).distinct().sorted().toArray();
    List<MapIdSet> parts = MapIdSet.of(ids).split(ShuffleProtocol.MAX_MAPS_CHARS, ShuffleProtocol.MAX_MAPS_PER_REQUEST);
    assertTrue(parts.size() > 1);
    int[] joined = parts.stream().flatMapToInt(p -> IntStream.of(p.toArray())).toArray();
    assertArrayEquals(ids, joined);
    for (MapIdSet p : parts) {
      assertTrue(p.encode().length() <= ShuffleProtocol.MAX_MAPS_CHARS);
      assertTrue(p.size() <= ShuffleProtocol.MAX_MAPS_PER_REQUEST);
    }
  }

  @Test
  void aFetchOverTheCapsSplitsIntoRequestsWithinThem() {
    FetchRequest big = new FetchRequest("application_1_1", "7", 0, new ReduceRange(0, 3),
        MapIdSet.of(IntStream.range(0, 40_000).map(i -> i * 3).toArray()));
    List<FetchRequest> parts = big.split();
    assertTrue(parts.size() >= 10);
    parts.forEach(p -> assertEquals(1, p.split().size()));
    assertEquals(40_000, parts.stream().mapToLong(p -> p.maps().size()).sum());
  }
}
