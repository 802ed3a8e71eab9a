package org.elasticam.allocator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.elasticam.allocator.HeartbeatSchedule.Intervals;
import org.elasticam.conf.ElasticConf;
import org.junit.jupiter.api.Test;

class HeartbeatScheduleTest {

  private static List<Long> gaps(HeartbeatSchedule s, int n) {
    List<Long> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(s.sleepAfterHeartbeat(true));
    }
    return out;
  }

  /** Heartbeat times from a restart, up to {@code untilMs}, with requests pending throughout. */
  private static TreeSet<Long> beats(Intervals iv, long untilMs) {
    HeartbeatSchedule s = new HeartbeatSchedule(iv);
    TreeSet<Long> out = new TreeSet<>();
    long t = 0;
    while (t <= untilMs) {
      out.add(t);
      t += s.sleepAfterHeartbeat(true);
    }
    return out;
  }

  @Test
  void sparksScheduleDoublesFromTheInitialIntervalUpToTheHeartbeat() {
    HeartbeatSchedule s = new HeartbeatSchedule(Intervals.spark(200, 3000));
    assertEquals(List.of(200L, 400L, 800L, 1600L, 3000L, 3000L), gaps(s, 6));
  }

  @Test
  void firstPollsCoverTheFirstGapThenTheDoublingGoesOnAsSparks() {
    HeartbeatSchedule s = new HeartbeatSchedule(new Intervals(50, 200, 3000));
    assertEquals(List.of(50L, 50L, 50L, 50L, 400L, 800L, 1600L, 3000L), gaps(s, 8));
    // A first-poll gap that does not divide the first gap ends exactly where it does.
    HeartbeatSchedule odd = new HeartbeatSchedule(new Intervals(70, 200, 3000));
    assertEquals(List.of(70L, 70L, 60L, 400L, 800L), gaps(odd, 5));
  }

  @Test
  void everyHeartbeatOfSparksScheduleIsOneOfOurs() {
    for (long first : new long[] {1, 30, 50, 70, 100, 199}) {
      for (long initial : new long[] {100, 200, 350}) {
        for (long interval : new long[] {100, 1000, 3000}) {
          TreeSet<Long> ours = beats(new Intervals(first, initial, interval), 60_000);
          TreeSet<Long> sparks = beats(Intervals.spark(initial, interval), 60_000);
          assertTrue(ours.containsAll(sparks), () -> "first " + first + ", initial " + initial + ", interval "
              + interval + ": ours " + ours.headSet(5_000L) + ", Spark's " + sparks.headSet(5_000L));
        }
      }
    }
  }

  @Test
  void aRestartStartsTheFirstPollsAgain() {
    HeartbeatSchedule s = new HeartbeatSchedule(new Intervals(50, 200, 3000));
    gaps(s, 6);
    s.restart();
    assertEquals(List.of(50L, 50L, 50L, 50L, 400L), gaps(s, 5));
  }

  @Test
  void nothingPendingHeartbeatsAtTheIntervalAndStartsOverWhenRequestsCome() {
    HeartbeatSchedule s = new HeartbeatSchedule(new Intervals(50, 200, 3000));
    gaps(s, 6);
    assertEquals(3000, s.sleepAfterHeartbeat(false));
    assertEquals(List.of(50L, 50L), gaps(s, 2));
  }

  @Test
  void aGrantReachesTheAmAtTheFirstHeartbeatAtOrAfterItIsMade() {
    Intervals ours = new Intervals(50, 200, 3000);
    assertEquals(0, HeartbeatSchedule.firstHeartbeatAtOrAfter(ours, 0));
    assertEquals(50, HeartbeatSchedule.firstHeartbeatAtOrAfter(ours, 1));
    assertEquals(150, HeartbeatSchedule.firstHeartbeatAtOrAfter(ours, 115));
    assertEquals(200, HeartbeatSchedule.firstHeartbeatAtOrAfter(ours, 200));
    assertEquals(600, HeartbeatSchedule.firstHeartbeatAtOrAfter(ours, 201));
    Intervals sparks = Intervals.spark(200, 3000);
    assertEquals(200, HeartbeatSchedule.firstHeartbeatAtOrAfter(sparks, 115));
    assertEquals(1400, HeartbeatSchedule.firstHeartbeatAtOrAfter(sparks, 700));
    assertEquals(6000, HeartbeatSchedule.firstHeartbeatAtOrAfter(sparks, 3500));
  }

  @Test
  void theConfigurationsScheduleClampsItsIntervalsToTheHeartbeat() {
    Intervals defaults = Intervals.of(ElasticConf.of(Map.of()));
    assertEquals(new Intervals(50, 200, 3000), defaults);
    Intervals fast = Intervals.of(ElasticConf.of(Map.of("elasticam.yarn.heartbeat.interval", "100ms")));
    assertEquals(new Intervals(50, 100, 100), fast);
    assertEquals(new Intervals(40, 40, 40), Intervals.of(ElasticConf.of(Map.of()), 40));
    assertEquals(Intervals.spark(200, 3000),
        Intervals.of(ElasticConf.of(Map.of("elasticam.yarn.initialAllocation.firstPolls", "1s"))));
  }

  @Test
  void intervalsAreClampedToEachOtherAndMustBePositive() {
    Intervals iv = new Intervals(500, 400, 300);
    assertEquals(300, iv.initialMs());
    assertEquals(300, iv.firstPollsMs());
    assertThrows(IllegalArgumentException.class, () -> new Intervals(0, 200, 3000));
    assertThrows(IllegalArgumentException.class, () -> new Intervals(50, 200, 0));
  }
}
