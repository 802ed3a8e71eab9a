package org.elasticam.workload.stream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The batch arithmetic the streaming job and the simulator share, in worked numbers. */
class BatchLoadTest {

  private static BatchLoad load(String spec, long batchMs, long workPerRecordUs) {
    return new BatchLoad(RateProfile.parse(spec, Path.of(".")), batchMs, workPerRecordUs);
  }

  @Test
  void batchIProcessesItsIntervalAndIsDueAtItsEnd() {
    BatchLoad load = load("const:100", 2000, 1000);
    assertAll(
        () -> assertEquals(2000, load.dueAtMs(0)),
        () -> assertEquals(4000, load.dueAtMs(1)),
        () -> assertEquals(200, load.records(0)),
        () -> assertEquals(200_000, load.totalWorkUs(0)),
        () -> assertEquals(50, load.taskMs(0, 4)),
        () -> assertEquals(200, load.taskMs(0, 1)));
  }

  @Test
  void stepChangeLandsInTheBatchWhoseIntervalHoldsIt() {
    BatchLoad load = load("step:100@0,300@5min,100@15min", 2000, 1000);
    assertAll(
        () -> assertEquals(200, load.records(149)),
        () -> assertEquals(600, load.records(150)),
        () -> assertEquals(300_000, load.dueAtMs(149)),
        // 600 records × 1 ms over 8 tasks.
        () -> assertEquals(75, load.taskMs(150, 8)));
  }

  @Test
  void batchBoundaryInsideAStepSplitsTheRecords() {
    BatchLoad load = load("step:100@0,300@3s", 2000, 10);
    assertEquals(100 + 300, load.records(1));
    assertEquals(4000, load.totalWorkUs(1));
  }

  @Test
  void taskTimeRoundsToNearestMs() {
    assertAll(
        // 3 records × 500 us = 1500 us over 1 task: 1.5 ms rounds up to 2.
        () -> assertEquals(2, load("const:1.5", 2000, 500).taskMs(0, 1)),
        // 1400 us → 1 ms; 2 tasks of 700 us each → 1 ms each.
        () -> assertEquals(1, load("const:1", 2000, 700).taskMs(0, 1)),
        () -> assertEquals(1, load("const:1", 2000, 700).taskMs(0, 2)),
        // 3 records × 1 ms / 2 tasks = 1.5 → 2; / 4 = 0.75 → 1.
        () -> assertEquals(2, load("const:1.5", 2000, 1000).taskMs(0, 2)),
        () -> assertEquals(1, load("const:1.5", 2000, 1000).taskMs(0, 4)));
  }

  @Test
  void taskTimeIsAtLeastOneMsWithInputAndZeroWithout() {
    assertAll(
        () -> assertEquals(1, load("const:1", 1000, 1).taskMs(0, 100)),
        () -> assertEquals(1, load("const:1", 1000, 0).taskMs(0, 1)),
        () -> assertEquals(0, load("const:0", 1000, 1000).taskMs(0, 4)),
        () -> assertEquals(0, load("const:0.1", 1000, 1000).records(0)),
        () -> assertEquals(0, load("const:0.1", 1000, 1000).taskMs(0, 4)));
  }

  @Test
  void partitionsAreConfiguredOrTwicePerExecutor() {
    assertAll(
        () -> assertEquals(7, BatchLoad.partitions(7, 3)),
        () -> assertEquals(6, BatchLoad.partitions(null, 3)),
        () -> assertEquals(1, BatchLoad.partitions(null, 0)),
        () -> assertEquals(Integer.MAX_VALUE, BatchLoad.partitions(null, Integer.MAX_VALUE)),
        () -> assertThrows(IllegalArgumentException.class, () -> BatchLoad.partitions(0, 3)));
  }

  @Test
  void hugeLoadsOverflowLoudly() {
    BatchLoad load = load("const:1000000000", 2_000_000_000L, Long.MAX_VALUE / 4);
    assertThrows(ArithmeticException.class, () -> load.totalWorkUs(0));
    BatchLoad far = load("const:1", Long.MAX_VALUE / 2, 1);
    assertThrows(ArithmeticException.class, () -> far.dueAtMs(5));
  }

  @Test
  void misuseIsRefused() {
    BatchLoad load = load("const:1", 1000, 1);
    assertAll(
        () -> assertThrows(IllegalArgumentException.class, () -> load.dueAtMs(-1)),
        () -> assertThrows(IllegalArgumentException.class, () -> load.taskMs(0, 0)),
        () -> assertThrows(IllegalArgumentException.class, () -> load("const:1", 0, 1)),
        () -> assertThrows(IllegalArgumentException.class, () -> load("const:1", 1000, -1)),
        () -> assertThrows(NullPointerException.class, () -> new BatchLoad(null, 1000, 1)));
  }
}
