package org.elasticam.engine.executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ExecutorRosterTest {

  private final ExecutorRoster roster = new ExecutorRoster();

  @Test
  void beforeAPreemptionTheNamedGoAndThenTheLeastBusyThatHoldNoUnservedOutput() {
    Map<String, Integer> running = Map.of("1", 2, "2", 0, "3", 1, "4", 0, "5", 3);
    Set<String> holdsOwnOutput = Set.of("4");
    roster.retire("2", "removed by the streaming policy");
    List<String> chosen = roster.toGiveBack(List.of("5", "9"), 2, List.of("1", "2", "3", "4", "5"),
        holdsOwnOutput::contains, running::get);
    assertEquals(List.of("5", "3", "1"), chosen,
        "5 because it is named (9 is not registered); then 3 and 1, the least busy: 2 already retires, 4 alone serves its output");
  }

  @Test
  void aRetiringExecutorGetsNoTasksAndItsRemovalIsNoLoss() {
    assertTrue(roster.retire("1", "idle"));
    assertFalse(roster.retire("1", "again"), "the first reason stands");
    assertEquals("idle", roster.retiringWhy("1").orElseThrow());
    assertTrue(roster.offersNothing("1"));
    roster.removing("1");
    assertTrue(roster.ended("1"), "we removed it");
    assertFalse(roster.offersNothing("1"));
    assertFalse(roster.ended("2"), "an executor that ended on its own is a loss");
  }

  @Test
  void aRecommissionedHostKeepsOnlyExecutorsRetiringForItsDecommissioning() {
    assertTrue(roster.decommissioning("h1"));
    assertFalse(roster.decommissioning("h1"), "once");
    roster.retire("1", ExecutorRoster.DECOMMISSIONING);
    roster.retire("2", "idle");
    assertTrue(roster.recommissioned("h1"));
    assertTrue(roster.staysAfterRecommission("1"));
    assertFalse(roster.staysAfterRecommission("2"), "it retires for another reason");
    assertTrue(roster.isRetiring("2"));
  }

  @Test
  void aSurvivorThatDoesNotComeBackIsGoneForGood() {
    roster.awaitReattach(List.of("1", "2"));
    assertTrue(roster.reattached("1"));
    assertFalse(roster.reattached("1"), "a second registration is no re-attachment");
    assertEquals(List.of("2"), roster.stillAwaited());
    assertTrue(roster.survivorGone("2"));
    assertTrue(roster.isGone("2"));
    assertFalse(roster.survivorGone("2"));
  }
}
