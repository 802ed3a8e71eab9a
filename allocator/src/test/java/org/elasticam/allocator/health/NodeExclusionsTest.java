package org.elasticam.allocator.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.elasticam.allocator.plan.Action.UpdateExclusions;
import org.junit.jupiter.api.Test;

class NodeExclusionsTest {

  private final NodeExclusions ex = new NodeExclusions(true, 3, Duration.ofMillis(100));

  private void assertSync(long now, List<String> add, List<String> remove) {
    UpdateExclusions u = ex.sync(now).orElseThrow();
    assertEquals(add, u.additions());
    assertEquals(remove, u.removals());
  }

  @Test
  void schedulerExclusionsAreSentAsDifferences() {
    ex.setSchedulerExcluded(Set.of("hostA"));
    assertSync(0, List.of("hostA"), List.of());
    ex.setSchedulerExcluded(Set.of("hostA", "hostB"));
    assertSync(0, List.of("hostB"), List.of());
    ex.setSchedulerExcluded(Set.of());
    assertSync(0, List.of(), List.of("hostA", "hostB"));
    assertTrue(ex.sync(0).isEmpty());
  }

  @Test
  void ownExclusionsStartAtTheLimitAndExpire() {
    ex.recordFailure("host", 0, 10);
    ex.recordFailure("host", 1, 10);
    assertTrue(ex.sync(1).isEmpty());
    ex.recordFailure("host", 2, 10);
    UpdateExclusions u = ex.sync(2).orElseThrow();
    assertEquals(List.of("host"), u.additions());
    assertEquals(Map.of("host", 102L), u.excludedUntilMs());
    assertTrue(ex.sync(101).isEmpty());
    assertSync(102, List.of(), List.of("host"));
  }

  @Test
  void failuresOlderThanTheTimeoutDoNotAddUp() {
    ex.recordFailure("host", 0, 10);
    ex.recordFailure("host", 50, 10);
    ex.recordFailure("host", 150, 10);
    assertTrue(ex.sync(150).isEmpty());
  }

  @Test
  void schedulerAndOwnListsCombine() {
    for (int i = 0; i < 3; i++) {
      ex.recordFailure("host1", i, 10);
    }
    ex.setSchedulerExcluded(Set.of("host2", "host3"));
    assertSync(3, List.of("host1", "host2", "host3"), List.of());
    ex.setSchedulerExcluded(Set.of("host3", "host4"));
    assertSync(13, List.of("host4"), List.of("host2"));
  }

  @Test
  void neverExcludesEveryNode() {
    ex.setSchedulerExcluded(Set.of("host1", "host2", "host3"));
    ex.recordFailure("host4", 0, 4);
    ex.recordFailure("host4", 1, 4);
    String warning = ex.recordFailure("host4", 2, 4).orElseThrow();
    assertTrue(warning.contains("every node of the cluster would be excluded"), warning);
    assertEquals(Set.of("host1", "host2", "host3"), ex.excluded(2));
  }

  @Test
  void disabledExcludesNothingOfItsOwn() {
    NodeExclusions off = new NodeExclusions(false, 1, Duration.ofHours(1));
    off.recordFailure("h", 0, 10);
    assertTrue(off.sync(0).isEmpty());
  }
}
