package org.elasticam.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.elasticam.allocator.dynamic.AllocationPolicies;
import org.elasticam.allocator.dynamic.AllocationPolicy;
import org.elasticam.allocator.dynamic.PolicySettings;
import org.elasticam.workload.Trace;

/**
 * The simulator for code outside this package that brings its own policy instance — the Spark
 * reference module runs Spark's manager beside ours through it — with the simulator's default
 * world and configuration (plus overrides), exactly as {@code simulate} runs a named policy.
 */
public final class PolicyHarness {

  /**
   * What one run came to.
   *
   * @param idleExecutorMs the part of {@code executorMs} when the executor ran no task
   * @param events simulator actions run (task ends, heartbeats, ticks, launches, ...)
   * @param allocatorCycles heartbeats, each one reconcile of the allocation core
   * @param allocatorNanos wall-clock time the core spent in them (and in matching grants)
   */
  public record Outcome(String policy, long makespanMs, long executorMs, long idleExecutorMs, int peakExecutors,
      long events, long allocatorCycles, long allocatorNanos) {}

  private final SimConfig config;

  private PolicyHarness(SimConfig config) {
    this.config = config;
  }

  /**
   * @param overrides {@code elasticam.*} settings on top of the simulator's defaults
   * @throws org.elasticam.conf.ConfigException when they break a rule
   */
  public static PolicyHarness withConf(Map<String, String> overrides) {
    return new PolicyHarness(SimConfig.of(overrides, SimParams.defaults()));
  }

  /**
   * The simulated world, as {@code simulate}'s flags set it.
   *
   * @param grantMs ResourceManager grant latency after a request arrives
   * @param startMs executor start latency, launch to registration, alone on its host
   * @param startContention extra start latency per executor already starting on the host, as a fraction of startMs
   * @param capacity the most containers the cluster gives the application
   * @param hosts NodeManagers
   * @param timeScale multiplies the trace's durations and gaps
   * @param oneMachine all hosts share one machine's cores (executor starts anywhere slow each other)
   * @param heartbeatMs the AM's heartbeat interval while no request is pending
   */
  public record World(long grantMs, long startMs, double startContention, int capacity, int hosts, double timeScale,
      boolean oneMachine, long heartbeatMs) {

    /** The simulator's defaults. */
    public static World defaults() {
      SimParams d = SimParams.defaults();
      return new World(d.grantMs(), d.startMs(), d.startContention(), d.capacity(), d.hosts(), d.timeScale(),
          d.oneMachine(), d.heartbeatMs());
    }

    public World withSize(int newCapacity, int newHosts) {
      return new World(grantMs, startMs, startContention, newCapacity, newHosts, timeScale, oneMachine, heartbeatMs);
    }
  }

  public static PolicyHarness withConf(Map<String, String> overrides, World w) {
    SimParams p = SimParams.defaults().withGrantMs(w.grantMs()).withStartMs(w.startMs())
        .withStartContention(w.startContention()).withCapacity(w.capacity()).withHosts(w.hosts())
        .withTimeScale(w.timeScale()).withOneMachine(w.oneMachine());
    return new PolicyHarness(SimConfig.of(overrides, p, w.heartbeatMs(), new ArrayList<>()));
  }

  /** The settings a policy is built with in this configuration. */
  public PolicySettings settings() {
    return PolicySettings.from(config.conf());
  }

  /** The hosts of the simulated cluster, in the order the replay spreads recorded hosts over them. */
  public List<String> hosts() {
    return config.params().hostNames();
  }

  /**
   * Replays the trace with this policy until its last task ends.
   *
   * @throws RuntimeException when the run cannot finish (the application failed, or stalled)
   */
  public Outcome run(Trace trace, String traceName, AllocationPolicy policy) {
    return outcome(PolicyRun.of(trace, traceName, policy, config, null));
  }

  /**
   * As {@link #run(Trace, String, AllocationPolicy)} with a policy by name, as {@code simulate
   * --policy} names them: a policy {@code AllocationPolicies} makes, {@code oracle}, or {@code
   * oracle-start-bound}.
   */
  public Outcome run(Trace trace, String traceName, String policyName) {
    if (policyName.equals(Oracle.NAME) || policyName.equals(Oracle.BOUND)) {
      SimResult oracle = Oracle.run(trace, traceName, config);
      SimResult r = policyName.equals(Oracle.NAME) ? oracle : Oracle.startAwareBound(oracle, config.params());
      return new Outcome(r.policy(), r.makespanMs(), r.executorMs(), r.idleExecutorMs(), r.peakExecutors(), 0, 0, 0);
    }
    AllocationPolicy policy = AllocationPolicies.create(policyName, settings());
    return outcome(PolicyRun.of(trace, traceName, policy, config, null));
  }

  /** The oracle and its start-aware bound from one oracle run: {oracle, bound}. */
  public List<Outcome> oracleAndBound(Trace trace, String traceName) {
    SimResult oracle = Oracle.run(trace, traceName, config);
    SimResult bound = Oracle.startAwareBound(oracle, config.params());
    return List.of(oracle, bound).stream().map(r -> new Outcome(r.policy(), r.makespanMs(), r.executorMs(),
        r.idleExecutorMs(), r.peakExecutors(), 0, 0, 0)).toList();
  }

  private static Outcome outcome(PolicyRun run) {
    SimResult r = run.result();
    return new Outcome(r.policy(), r.makespanMs(), r.executorMs(), r.idleExecutorMs(), r.peakExecutors(),
        run.eventsRun(), run.allocatorCycles(), run.allocatorCycleNanos());
  }
}
