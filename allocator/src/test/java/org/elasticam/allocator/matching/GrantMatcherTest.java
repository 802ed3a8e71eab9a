package org.elasticam.allocator.matching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.elasticam.allocator.matching.GrantMatcher.Level;
import org.elasticam.allocator.matching.GrantMatcher.Match;
import org.elasticam.allocator.model.AskId;
import org.elasticam.allocator.model.AskOrigin;
import org.elasticam.allocator.model.ContainerRef;
import org.elasticam.allocator.model.Grant;
import org.elasticam.allocator.model.LocalityPreference;
import org.elasticam.allocator.model.PendingAsk;
import org.junit.jupiter.api.Test;

class GrantMatcherTest {

  private static PendingAsk local(long id, List<String> hosts, List<String> racks) {
    return new PendingAsk(new AskId(id), new LocalityPreference(hosts, racks), AskOrigin.LOCALITY, id);
  }

  private static PendingAsk free(long id) {
    return new PendingAsk(new AskId(id), LocalityPreference.NONE, AskOrigin.ANY_HOST, id);
  }

  private static Grant grant(String id, String host, String rack, boolean free) {
    return new Grant(new ContainerRef(id), host, rack, free);
  }

  @Test
  void nodeThenRackThenAny() {
    List<PendingAsk> asks = List.of(local(1, List.of("h1"), List.of("/r1")), local(2, List.of("h5"), List.of("/r2")),
        local(3, List.of("h9"), List.of("/r9")));
    List<Match> m = GrantMatcher.match(List.of(
        grant("c1", "h1", "/r1", false), grant("c2", "h6", "/r2", false), grant("c3", "h7", "/r7", false)), asks, true);
    assertEquals(new AskId(1), m.get(0).ask().id());
    assertEquals(Level.NODE, m.get(0).level());
    assertEquals(new AskId(2), m.get(1).ask().id());
    assertEquals(Level.RACK, m.get(1).level());
    assertEquals(new AskId(3), m.get(2).ask().id());
    assertEquals(Level.ANY, m.get(2).level());
  }

  @Test
  void aLaterNodeLocalGrantIsNotRobbedByAnEarlierAnyGrant() {
    List<PendingAsk> asks = List.of(local(1, List.of("h2"), List.of()), local(2, List.of("h3"), List.of()));
    List<Match> m = GrantMatcher.match(List.of(grant("c1", "h9", null, false), grant("c2", "h2", null, false)),
        asks, true);
    assertEquals(new AskId(2), m.get(0).ask().id());
    assertEquals(new AskId(1), m.get(1).ask().id());
    assertEquals(Level.NODE, m.get(1).level());
  }

  @Test
  void grantsStayWithinTheirPriorityWhileItHasAsks() {
    List<PendingAsk> asks = List.of(local(1, List.of("h1"), List.of()), free(2));
    List<Match> m = GrantMatcher.match(List.of(grant("c1", "h1", null, true)), asks, true);
    assertEquals(new AskId(2), m.get(0).ask().id());
    assertEquals(Level.ANY, m.get(0).level());
  }

  @Test
  void crossPriorityOnlyAsALastResortAndNeverUnderALabel() {
    List<PendingAsk> asks = List.of(local(1, List.of("h1"), List.of()));
    assertEquals(new AskId(1), GrantMatcher.match(List.of(grant("c1", "h2", null, true)), asks, true).get(0).ask().id());
    Match none = GrantMatcher.match(List.of(grant("c1", "h2", null, true)), asks, false).get(0);
    assertNull(none.ask());
    assertEquals(Level.NONE, none.level());
  }

  @Test
  void eachAskIsTakenOnceEvenWhenItNamesManyHosts() {
    List<PendingAsk> asks = List.of(local(1, List.of("h1", "h2"), List.of()));
    List<Match> m = GrantMatcher.match(List.of(grant("c1", "h1", null, false), grant("c2", "h2", null, false)),
        asks, true);
    assertEquals(new AskId(1), m.get(0).ask().id());
    assertNull(m.get(1).ask());
  }

  @Test
  void oldestAskFirst() {
    List<PendingAsk> asks = List.of(free(7), free(3));
    assertEquals(new AskId(7), GrantMatcher.match(List.of(grant("c", "h", null, true)), asks, true).get(0).ask().id());
  }
}
