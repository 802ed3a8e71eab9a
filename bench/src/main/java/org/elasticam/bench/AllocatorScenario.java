package org.elasticam.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.elasticam.allocator.model.AskId;
import org.elasticam.allocator.model.ContainerRef;
import org.elasticam.allocator.model.Grant;
import org.elasticam.allocator.model.LocalityHints;
import org.elasticam.allocator.model.PendingAsk;
import org.elasticam.allocator.reconcile.AskChanges;
import org.elasticam.allocator.reconcile.ReconcileInput;
import org.elasticam.allocator.reconcile.Reconciler;
import org.elasticam.conf.Placement;

/**
 * One allocator cycle's inputs at a given scale: a cluster of hosts on racks of 20, a target of
 * executors of which 80 % run (spread evenly), and locality-aware tasks that each prefer 3 random
 * hosts (HDFS's replication). The 20 % missing must be placed, asked for, granted and matched.
 */
public final class AllocatorScenario {

  public static final int EXECUTOR_CORES = 5;

  public final int hosts;
  public final int executors;
  public final int tasks;
  public final LocalityHints hints;
  public final Map<String, Integer> activeOnHost;
  public final Map<String, String> rackOfHost;
  public final List<String> hostNames;
  public final ReconcileInput input;
  /** The asks the cycle's reconcile produces, as pending asks, and one grant for each. */
  public final List<PendingAsk> newAsks;
  public final List<Grant> grants;

  public AllocatorScenario(int hosts, int executors, int tasks) {
    this.hosts = hosts;
    this.executors = executors;
    this.tasks = tasks;
    Random rnd = new Random(7);
    hostNames = new ArrayList<>(hosts);
    rackOfHost = new HashMap<>();
    for (int h = 0; h < hosts; h++) {
      // IP literals: AMRMClientImpl resolves every host's rack, and a name this sandbox cannot
      // resolve would time the DNS lookup, not the client.
      String name = "10.1." + (h / 250) + "." + (h % 250 + 1);
      hostNames.add(name);
      rackOfHost.put(name, "/rack" + (h / 20));
    }
    Map<String, Integer> perHost = new LinkedHashMap<>();
    for (int t = 0; t < tasks; t++) {
      for (int r = 0; r < 3; r++) {
        perHost.merge(hostNames.get(rnd.nextInt(hosts)), 1, Integer::sum);
      }
    }
    hints = new LocalityHints(tasks, perHost);
    int running = executors * 8 / 10;
    activeOnHost = new HashMap<>();
    for (int e = 0; e < running; e++) {
      activeOnHost.merge(hostNames.get(e % hosts), 1, Integer::sum);
    }
    input = new ReconcileInput(executors, hints, List.of(), running, 0, activeOnHost, hostNames, rackOfHost,
        Set.of(), EXECUTOR_CORES, 1, Placement.SPREAD, true);
    AskChanges changes = Reconciler.reconcile(input);
    newAsks = new ArrayList<>(changes.adds().size());
    grants = new ArrayList<>(changes.adds().size());
    for (int i = 0; i < changes.adds().size(); i++) {
      AskChanges.NewAsk n = changes.adds().get(i);
      newAsks.add(new PendingAsk(new AskId(i + 1), n.locality(), n.origin(), 0));
      List<String> preferred = n.locality().hosts();
      String host = preferred.isEmpty() ? hostNames.get(i % hosts) : preferred.get(i % preferred.size());
      grants.add(new Grant(new ContainerRef("container_" + i), host, rackOfHost.get(host), n.origin().localityFree()));
    }
  }

  public static AllocatorScenario ofScale(String scale) {
    return switch (scale) {
      case "large" -> new AllocatorScenario(1_000, 10_000, 50_000);
      case "small" -> new AllocatorScenario(100, 1_000, 5_000);
      default -> throw new IllegalArgumentException("scale is small or large: " + scale);
    };
  }
}
