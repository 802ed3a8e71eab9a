package org.elasticam.bench;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.ApplicationMasterProtocol;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.client.api.impl.AMRMClientImpl;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.util.RackResolver;
import org.elasticam.allocator.matching.GrantMatcher;
import org.elasticam.allocator.model.PendingAsk;
import org.elasticam.allocator.placement.ContainerPlacement;
import org.elasticam.allocator.reconcile.Reconciler;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One allocator cycle (placement + reconcile + matching) at 1,000 hosts / 10,000 executors /
 * 50,000 locality-aware tasks ("large") and 10x smaller ("small"); beside it, in the same run, the
 * straightforward O(containers x hosts) placement as the baseline, and what handing the resulting
 * requests to a real AMRMClientImpl costs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = {"-Xmx2g"})
public class AllocatorCycleBenchmark {

  @Param({"small", "large"})
  public String scale;

  private AllocatorScenario s;
  private int missing;

  @Setup
  public void setUp() {
    s = AllocatorScenario.ofScale(scale);
    // AMRMClientImpl resolves the rack of every host of every request it is given.
    RackResolver.init(new YarnConfiguration());
    missing = s.input.target() - s.input.running();
  }

  /** Reconcile (with placement) and match one grant per new ask: the core's whole cycle. */
  @Benchmark
  public void cycle(Blackhole bh) {
    bh.consume(Reconciler.reconcile(s.input));
    bh.consume(GrantMatcher.match(s.grants, s.newAsks, true));
  }

  @Benchmark
  public void placementOurs(Blackhole bh) {
    bh.consume(ContainerPlacement.place(missing, s.hints, s.activeOnHost, List.<PendingAsk>of(),
        AllocatorScenario.EXECUTOR_CORES, 1, s.rackOfHost));
  }

  @Benchmark
  public void placementBaseline(Blackhole bh) {
    bh.consume(NaivePlacement.place(missing, s.hints, s.activeOnHost, AllocatorScenario.EXECUTOR_CORES, s.rackOfHost));
  }

  /** A fresh client each time: its request table is what is measured. */
  @State(Scope.Thread)
  public static class ClientState {
    AMRMClientImpl<ContainerRequest> client;

    @Setup(Level.Invocation)
    public void fresh() {
      client = new TableOnlyClient();
    }
  }

  /** The cost of addContainerRequest for every request the cycle produced. */
  @Benchmark
  public void amrmClientAddRequests(ClientState cs, Blackhole bh) {
    Resource r = Resource.newInstance(2048, AllocatorScenario.EXECUTOR_CORES);
    Priority p = Priority.newInstance(1);
    for (PendingAsk a : s.newAsks) {
      List<String> hosts = a.locality().hosts();
      List<String> racks = a.locality().racks();
      cs.client.addContainerRequest(new ContainerRequest(r, hosts.isEmpty() ? null : hosts.toArray(new String[0]),
          racks.isEmpty() ? null : racks.toArray(new String[0]), p));
    }
    bh.consume(cs.client);
  }

  /** AMRMClientImpl's request table with no RPC behind it: nothing here calls the protocol. */
  static final class TableOnlyClient extends AMRMClientImpl<ContainerRequest> {
    TableOnlyClient() {
      this.rmClient = (ApplicationMasterProtocol) null;
    }
  }
}
