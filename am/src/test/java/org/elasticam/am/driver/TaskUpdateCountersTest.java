package org.elasticam.am.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.elasticam.api.Counters;
import org.elasticam.rpc.proto.TaskState;
import org.elasticam.rpc.proto.TaskUpdate;
import org.junit.jupiter.api.Test;

/** The driver takes an attempt's counters within the API's limits, whatever an executor sends. */
class TaskUpdateCountersTest {

  @Test
  void countersWithinTheLimitsPassAsTheyAre() {
    TaskUpdate u = TaskUpdate.newBuilder().setTaskId(1).setState(TaskState.TASK_STATE_SUCCEEDED)
        .putCounters(Counters.SHUFFLE_RECORDS_WRITTEN, 12).putCounters("user.rows", -3).build();
    assertEquals(Map.of(Counters.SHUFFLE_RECORDS_WRITTEN, 12L, "user.rows", -3L), Driver.counters(u));
  }

  @Test
  void namesBeyondTheLimitsAreDropped() {
    TaskUpdate.Builder u = TaskUpdate.newBuilder().setTaskId(1).setState(TaskState.TASK_STATE_SUCCEEDED)
        .putCounters("x".repeat(Counters.MAX_NAME_CHARS + 1), 1).putCounters("", 1).putCounters("bell\u0007", 1);
    for (int i = 0; i < Counters.MAX_PER_TASK + 10; i++) {
      u.putCounters(String.format("c%03d", i), i);
    }
    Map<String, Long> kept = Driver.counters(u.build());
    assertEquals(Counters.MAX_PER_TASK, kept.size());
    assertEquals(0L, kept.get("c000"), "the first names in name order");
    assertEquals(null, kept.get(String.format("c%03d", Counters.MAX_PER_TASK)));
  }
}
