package org.elasticam.engine.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TaskFailureExclusionsTest {

  private static final Set<String> HOSTS = Set.of("h1", "h2", "h3");

  @Test
  void aNodeIsExcludedAfterItsFailuresForTheTimeout() {
    TaskFailureExclusions x = new TaskFailureExclusions(true, 2, Duration.ofSeconds(60));
    assertTrue(x.taskFailed("h1", 0, HOSTS).isEmpty());
    assertEquals(Optional.of(new TaskFailureExclusions.Exclusion("h1", 61_000, 2)), x.taskFailed("h1", 1_000, HOSTS));
    assertTrue(x.isExcluded("h1", 60_999));
    assertEquals(Set.of("h1"), x.excluded(60_999));
    assertFalse(x.isExcluded("h1", 61_000), "expired");
    assertEquals(Set.of(), x.excluded(61_000));
    assertTrue(x.taskFailed("h1", 62_000, HOSTS).isEmpty(), "counting starts over after an exclusion");
  }

  @Test
  void neverTheLastNodeWithExecutors() {
    TaskFailureExclusions x = new TaskFailureExclusions(true, 1, Duration.ofSeconds(60));
    assertTrue(x.taskFailed("h1", 0, Set.of("h1", "h2")).isPresent());
    assertTrue(x.taskFailed("h2", 0, Set.of("h1", "h2")).isEmpty(), "h2 is the only node left");
    assertTrue(x.taskFailed("h3", 0, Set.of("h3")).isEmpty());
  }

  @Test
  void offDoesNothing() {
    TaskFailureExclusions x = new TaskFailureExclusions(false, 1, Duration.ofSeconds(60));
    assertTrue(x.taskFailed("h1", 0, HOSTS).isEmpty());
    assertFalse(x.isExcluded("h1", 0));
  }
}
