package org.elasticam.sim;

import java.util.List;
import java.util.Map;
import org.elasticam.allocator.dynamic.AllocationPolicy;
import org.elasticam.allocator.dynamic.PolicySettings;
import org.elasticam.workload.Trace;

/**
 * The simulator for code outside this package that brings its own policy instance — the Spark
 * reference module runs Spark's manager beside ours through it — with the simulator's default
 * world and configuration (plus overrides), exactly as {@code simulate} runs a named policy.
 */
public final class PolicyHarness {

  /** What one run came to. */
  public record Outcome(String policy, long makespanMs, long executorMs, int peakExecutors) {}

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
    SimResult r = PolicyRun.run(trace, traceName, policy, config, null);
    return new Outcome(r.policy(), r.makespanMs(), r.executorMs(), r.peakExecutors());
  }
}
