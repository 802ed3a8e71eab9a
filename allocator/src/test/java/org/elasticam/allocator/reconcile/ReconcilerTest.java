package org.elasticam.allocator.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.elasticam.allocator.model.AskId;
import org.elasticam.allocator.model.AskOrigin;
import org.elasticam.allocator.model.LocalityHints;
import org.elasticam.allocator.model.LocalityPreference;
import org.elasticam.allocator.model.PendingAsk;
import org.elasticam.conf.Placement;
import org.junit.jupiter.api.Test;

class ReconcilerTest {

  private final List<PendingAsk> pending = new ArrayList<>();
  private long nextId = 1;
  private int target;
  private int running;
  private LocalityHints hints = LocalityHints.NONE;
  private Placement placement = Placement.PACK;
  private boolean localityAllowed = true;
  private List<String> liveHosts = List.of();
  private Map<String, Integer> active = Map.of();

  private AskChanges round() {
    AskChanges c = Reconciler.reconcile(new ReconcileInput(target, hints, pending, running, 0, active, liveHosts,
        Map.of(), Set.of(), 1, 1, placement, localityAllowed));
    for (AskChanges.Cancel x : c.cancels()) {
      assertTrue(pending.removeIf(p -> p.id().equals(x.ask())), "cancelled an ask that is not pending");
    }
    for (AskChanges.NewAsk n : c.adds()) {
      pending.add(new PendingAsk(new AskId(nextId++), n.locality(), n.origin(), 0));
    }
    return c;
  }

  private static LocalityHints hints(Object... hostCounts) {
    Map<String, Integer> m = new LinkedHashMap<>();
    int tasks = 0;
    for (int i = 0; i < hostCounts.length; i += 2) {
      m.put((String) hostCounts[i], (Integer) hostCounts[i + 1]);
      tasks = Math.max(tasks, (Integer) hostCounts[i + 1]);
    }
    return new LocalityHints(tasks, m);
  }

  @Test
  void asksForWhatIsMissingAndNothingMoreOnTheNextRound() {
    target = 3;
    running = 1;
    assertEquals(2, round().adds().size());
    assertTrue(round().isEmpty());
    assertEquals(2, pending.size());
  }

  @Test
  void aSurplusCancelsLocalityFreeBeforeLocal() {
    hints = hints("h1", 1);
    target = 3;
    round();
    assertEquals(1, pending.stream().filter(p -> p.origin() == AskOrigin.LOCALITY).count());
    target = 1;
    AskChanges c = round();
    assertEquals(2, c.cancels().size());
    assertEquals(List.of(AskOrigin.LOCALITY), pending.stream().map(PendingAsk::origin).toList());
  }

  @Test
  void staleLocalityIsCancelledFirst() {
    hints = hints("h1", 1);
    target = 2;
    round();
    hints = hints("h2", 1);
    target = 1;
    AskChanges c = round();
    assertEquals(new AskId(1), c.cancels().get(0).ask()); // ask 1 was the one on h1
    // The surviving locality-free ask is then traded for one on the newly preferred host.
    assertEquals(1, pending.size());
    assertEquals(List.of("h2"), pending.get(0).locality().hosts());
  }

  @Test
  void staleAsksAreReplacedEvenWhenTheCountIsRight() {
    hints = hints("h1", 2);
    target = 2;
    round();
    assertEquals(List.of("h1"), pending.get(0).locality().hosts());
    hints = hints("h2", 2);
    AskChanges c = round();
    assertEquals(2, c.cancels().size());
    assertEquals(2, c.adds().size());
    assertTrue(pending.stream().allMatch(p -> p.locality().hosts().equals(List.of("h2"))));
    assertTrue(round().isEmpty());
  }

  @Test
  void localityFreeAsksAreTradedForLocalOnes() {
    target = 2;
    round();
    hints = hints("h1", 2);
    AskChanges c = round();
    assertEquals(2, c.cancels().size());
    assertEquals(2, c.adds().size());
    assertTrue(pending.stream().allMatch(p -> p.origin() == AskOrigin.LOCALITY));
    assertTrue(round().isEmpty());
  }

  @Test
  void runningExecutorsAboveTheTargetCancelAllPendingAndKillNothing() {
    target = 3;
    round();
    running = 2;
    target = 1;
    AskChanges c = round();
    assertEquals(3, c.cancels().size());
    assertTrue(c.adds().isEmpty());
    assertTrue(pending.isEmpty());
  }

  @Test
  void aNodeLabelDropsLocality() {
    localityAllowed = false;
    hints = hints("h1", 4);
    target = 2;
    round();
    assertTrue(pending.stream().allMatch(p -> p.locality().isNone()));
  }

  @Test
  void spreadNamesTheEmptiestLiveNodes() {
    placement = Placement.SPREAD;
    liveHosts = List.of("a", "b", "c");
    active = Map.of("a", 2, "b", 1);
    target = 6;
    round();
    assertEquals(List.of("c", "b", "c", "a", "b", "c"),
        pending.stream().map(p -> p.locality().hosts().get(0)).toList());
    assertTrue(pending.stream().allMatch(p -> p.origin() == AskOrigin.SPREAD));
    assertTrue(round().isEmpty());
    target = 4;
    assertEquals(2, round().cancels().size());
  }

  @Test
  void randomRoundsKeepTheInvariants() {
    java.util.Random rnd = new java.util.Random(42);
    for (int step = 0; step < 2_000; step++) {
      target = rnd.nextInt(12);
      running = rnd.nextInt(8);
      hints = rnd.nextBoolean() ? LocalityHints.NONE : hints("h" + rnd.nextInt(4), 1 + rnd.nextInt(6));
      if (!pending.isEmpty() && rnd.nextInt(3) == 0) {
        pending.remove(rnd.nextInt(pending.size()));
      }
      round();
      assertEquals(Math.max(0, target - running), pending.size(), "pending must close the gap exactly");
      assertTrue(round().isEmpty(), "a second round with the same input must change nothing");
    }
  }
}
