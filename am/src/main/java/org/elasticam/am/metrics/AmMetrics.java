package org.elasticam.am.metrics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.Interns;
import org.apache.hadoop.metrics2.lib.MetricsRegistry;
import org.apache.hadoop.metrics2.lib.MutableCounterLong;
import org.apache.hadoop.metrics2.lib.MutableGaugeInt;
import org.apache.hadoop.metrics2.lib.MutableStat;

/**
 * The AM's metrics2 source (context {@code elasticam}), in JMX as
 * {@code Hadoop:service=ElasticAM,name=ElasticAM} and in any sink the AM's
 * hadoop-metrics2.properties names. Gauges are the state at the AM's last tick; counters move
 * where the matching event-log line is written, so the two never disagree.
 */
public final class AmMetrics implements MetricsSource {

  public static final String NAME = "ElasticAM";

  /** Every executor_removed reason (DESIGN §3), each its own counter. */
  static final List<String> REMOVAL_REASONS =
      List.of("idle", "policy", "lost", "failed", "preempted", "decommissioned", "app_end");

  private final MetricsRegistry registry =
      new MetricsRegistry(Interns.info(NAME, "ElasticAM application master")).setContext("elasticam");
  private final MutableGaugeInt target = registry.newGauge("TargetExecutors", "The allocation target", 0);
  private final MutableGaugeInt running = registry.newGauge("RunningExecutors", "Executors in running containers", 0);
  private final MutableGaugeInt starting = registry.newGauge("StartingExecutors", "Containers granted, executor not "
      + "yet registered", 0);
  private final MutableGaugeInt pendingRequests = registry.newGauge("PendingContainerRequests",
      "Container requests outstanding at the ResourceManager", 0);
  private final MutableGaugeInt pendingTasks = registry.newGauge("PendingTasks", "Tasks waiting for a slot", 0);
  private final MutableGaugeInt runningTasks = registry.newGauge("RunningTasks", "Tasks running", 0);
  private final MutableCounterLong requestsAdded = registry.newCounter("ContainerRequestsAdded",
      "Container requests added", 0L);
  private final MutableCounterLong requestsCancelled = registry.newCounter("ContainerRequestsCancelled",
      "Container requests withdrawn", 0L);
  private final MutableCounterLong allocated = registry.newCounter("ContainersAllocated", "Containers granted", 0L);
  private final MutableCounterLong released = registry.newCounter("ContainersReleased", "Containers released", 0L);
  private final MutableCounterLong failures = registry.newCounter("ExecutorFailures",
      "Executor exits counted as failures (the ones that can fail the application)", 0L);
  private final Map<String, MutableCounterLong> removed = new LinkedHashMap<>();
  private final MutableStat allocateLatency = registry.newStat("AllocateLatency",
      "The allocate call to the ResourceManager", "Calls", "Millis");

  public AmMetrics() {
    for (String r : REMOVAL_REASONS) {
      String camel = java.util.Arrays.stream(r.split("_"))
          .map(w -> Character.toUpperCase(w.charAt(0)) + w.substring(1)).reduce("", String::concat);
      removed.put(r, registry.newCounter("ExecutorsRemoved" + camel, "Executors removed: " + r, 0L));
    }
  }

  /** Registers with the process's metrics system (initializing it as the AM's). */
  public AmMetrics register() {
    MetricsSystem ms = DefaultMetricsSystem.initialize(NAME);
    ms.register(NAME, "ElasticAM application master", this);
    return this;
  }

  public void unregister() {
    DefaultMetricsSystem.instance().unregisterSource(NAME);
  }

  /** The state at a tick. */
  public void observe(int target, int running, int starting, int pendingRequests, int pendingTasks,
      int runningTasks) {
    this.target.set(target);
    this.running.set(running);
    this.starting.set(starting);
    this.pendingRequests.set(pendingRequests);
    this.pendingTasks.set(pendingTasks);
    this.runningTasks.set(runningTasks);
  }

  public void requestsAdded(int n) {
    requestsAdded.incr(n);
  }

  public void requestsCancelled(int n) {
    requestsCancelled.incr(n);
  }

  public void containerAllocated() {
    allocated.incr();
  }

  public void containerReleased() {
    released.incr();
  }

  public void executorRemoved(String reason, boolean countedAsFailure) {
    MutableCounterLong c = removed.get(reason);
    if (c != null) {
      c.incr();
    }
    if (countedAsFailure) {
      failures.incr();
    }
  }

  public void allocateTook(long millis) {
    allocateLatency.add(millis);
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    registry.snapshot(collector.addRecord(registry.info()), all);
  }
}
