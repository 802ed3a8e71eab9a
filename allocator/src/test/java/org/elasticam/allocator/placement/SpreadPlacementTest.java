package org.elasticam.allocator.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpreadPlacementTest {

  @Test
  void fillsTheEmptiestNodesFirstAndRoundRobins() {
    assertEquals(List.of("c", "c", "b", "c", "a", "b"),
        SpreadPlacement.hosts(6, List.of("a", "b", "c"), Map.of("a", 3, "b", 2)));
  }

  @Test
  void tiesGoToTheFirstNameSoTheResultIsDeterministic() {
    assertEquals(List.of("a", "b", "c", "a"), SpreadPlacement.hosts(4, List.of("c", "b", "a"), Map.of()));
  }

  @Test
  void noLiveNodesMeansNoHints() {
    assertEquals(List.of(), SpreadPlacement.hosts(3, List.of(), Map.of()));
  }
}
