package org.elasticam.allocator.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.elasticam.allocator.model.AskId;
import org.elasticam.allocator.model.AskOrigin;
import org.elasticam.allocator.model.LocalityHints;
import org.elasticam.allocator.model.LocalityPreference;
import org.elasticam.allocator.model.PendingAsk;
import org.junit.jupiter.api.Test;

/** The worked examples of Spark's placement strategy (5-core executors, 1 cpu per task). */
class ContainerPlacementTest {

  private static final int CORES = 5;

  private static LocalityHints hints(int tasks, Object... hostCounts) {
    Map<String, Integer> m = new LinkedHashMap<>();
    for (int i = 0; i < hostCounts.length; i += 2) {
      m.put((String) hostCounts[i], (Integer) hostCounts[i + 1]);
    }
    return new LocalityHints(tasks, m);
  }

  private static List<List<String>> hostsOf(List<LocalityPreference> prefs) {
    List<List<String>> out = new ArrayList<>();
    for (LocalityPreference p : prefs) {
      out.add(p.isNone() ? null : List.copyOf(p.hosts()));
    }
    return out;
  }

  private static List<List<String>> place(int containers, LocalityHints hints, Map<String, Integer> existing,
      List<PendingAsk> matched) {
    return hostsOf(ContainerPlacement.place(containers, hints, existing, matched, CORES, 1, Map.of()));
  }

  private static List<List<String>> expected(Object... rows) {
    List<List<String>> out = new ArrayList<>();
    for (Object r : rows) {
      out.add(r == null ? null : List.of(((String) r).split(",")));
    }
    return out;
  }

  @Test
  void noMatchingExistingContainers() {
    assertEquals(expected("host3,host4,host5", "host3,host4,host5", "host3,host4"),
        place(3, hints(15, "host3", 15, "host4", 15, "host5", 10), Map.of("host1", 1, "host2", 1), List.of()));
  }

  @Test
  void partiallyMatched() {
    assertEquals(expected(null, "host2,host3", "host2,host3"),
        place(3, hints(15, "host1", 15, "host2", 15, "host3", 10), Map.of("host1", 2, "host2", 1), List.of()));
  }

  @Test
  void limitedResourcePartiallyMatched() {
    assertEquals(expected("host2,host3"),
        place(1, hints(15, "host1", 15, "host2", 15, "host3", 10), Map.of("host1", 2, "host2", 1), List.of()));
  }

  @Test
  void fullyMatched() {
    assertEquals(expected(null, null, null),
        place(3, hints(15, "host1", 15, "host2", 15, "host3", 10),
            Map.of("host1", 2, "host2", 2, "host3", 1), List.of()));
  }

  @Test
  void noLocalityTasks() {
    assertEquals(expected((Object) null), place(1, hints(0), Map.of(), List.of()));
  }

  @Test
  void pendingLocalityRequestsCountAsShares() {
    List<PendingAsk> pending = List.of(ask(1, "host2", "host3"), ask(2, "host1", "host4"));
    assertEquals(expected("host3"),
        place(1, hints(15, "host1", 15, "host2", 15, "host3", 10), Map.of("host1", 2, "host2", 1), pending));
  }

  @Test
  void mostWantedHostsAppearInMostRequests() {
    // 20 tasks prefer (h1,h2,h3), 10 prefer (h1,h2,h4); 2-core executors.
    LocalityHints h = hints(30, "h1", 30, "h2", 30, "h3", 20, "h4", 10);
    List<List<String>> got = hostsOf(ContainerPlacement.place(10, h, Map.of(), List.of(), 2, 1, Map.of()));
    List<List<String>> want = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      want.add(List.of("h1", "h2", "h3", "h4"));
    }
    for (int i = 0; i < 4; i++) {
      want.add(List.of("h1", "h2", "h3"));
    }
    want.add(List.of("h1", "h2"));
    want.add(List.of("h1", "h2"));
    assertEquals(want, got);
  }

  @Test
  void racksAreTheDistinctRacksOfTheHosts() {
    List<LocalityPreference> got = ContainerPlacement.place(2, hints(10, "a", 10, "b", 10, "c", 5), Map.of(),
        List.of(), 5, 1, Map.of("a", "/r1", "b", "/r1", "c", "/r2"));
    assertEquals(List.of("/r1", "/r2"), got.get(0).racks());
    assertEquals(List.of("a", "b", "c"), got.get(0).hosts());
  }

  @Test
  void requestsWithTheSameHostsShareOneList() {
    List<LocalityPreference> got = ContainerPlacement.place(3, hints(15, "host3", 15, "host4", 15, "host5", 10),
        Map.of(), List.of(), 5, 1, Map.of());
    assertSame(got.get(0), got.get(1));
  }

  @Test
  void taskCpusReduceTasksPerExecutor() {
    // 4 cores, 2 cpus per task: 10 tasks need 5 executors, all wanted on one host.
    List<List<String>> got = hostsOf(ContainerPlacement.place(6, hints(10, "h", 10), Map.of(), List.of(), 4, 2, Map.of()));
    assertEquals(expected(null, "h", "h", "h", "h", "h"), got);
  }

  @Test
  void longHostListsAreCappedInRotatingWindowsThatCoverEveryHost() {
    Map<String, Integer> m = new LinkedHashMap<>();
    for (int h = 0; h < 100; h++) {
      m.put("h" + h, 10);
    }
    List<LocalityPreference> got = ContainerPlacement.place(10, new LocalityHints(1000, m), Map.of(), List.of(), 5, 1,
        Map.of());
    java.util.Set<String> covered = new java.util.HashSet<>();
    for (LocalityPreference p : got) {
      assertEquals(ContainerPlacement.MAX_HOSTS_PER_REQUEST, p.hosts().size());
      covered.addAll(p.hosts());
    }
    assertEquals(100, covered.size());
  }

  private static PendingAsk ask(long id, String... hosts) {
    return new PendingAsk(new AskId(id), new LocalityPreference(List.of(hosts), List.of()), AskOrigin.LOCALITY, 0);
  }
}
