package org.elasticam.sparkref;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.ExecutorAllocationClient;
import org.apache.spark.ExecutorAllocationManager;
import org.apache.spark.SparkConf;
import org.apache.spark.resource.ResourceProfile$;
import org.apache.spark.resource.ResourceProfileManager;
import org.apache.spark.scheduler.LiveListenerBus;
import org.apache.spark.util.ManualClock;
import org.elasticam.allocator.dynamic.PolicySettings;
import org.elasticam.conf.Durations;
import scala.Option;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The one place that builds and steps Spark's manager from Java. Scala compiles the manager's
 * private {@code schedule()} to a public method named {@code org$apache$spark$ExecutorAllocationManager$$schedule},
 * and its state to public accessors ({@code numExecutorsTargetPerResourceProfileId},
 * {@code listener}, {@code executorMonitor}); Spark's own suite reaches them the same way (with
 * PrivateMethodTester). They are stable within 3.5.x, which this module pins.
 */
final class SparkManagers {

  /** Spark's default resource profile, the only one the simulator uses. */
  static final int DEFAULT_PROFILE = 0;

  private SparkManagers() {}

  /** Our settings as Spark's keys: the same rules with the same numbers. */
  static SparkConf conf(PolicySettings s) {
    SparkConf c = new SparkConf(false)
        .set("spark.app.id", "spark-reference")
        .set("spark.dynamicAllocation.enabled", "true")
        .set("spark.dynamicAllocation.minExecutors", String.valueOf(s.minExecutors()))
        .set("spark.dynamicAllocation.maxExecutors", String.valueOf(s.maxExecutors()))
        .set("spark.dynamicAllocation.initialExecutors", String.valueOf(s.initialExecutors()))
        .set("spark.dynamicAllocation.executorAllocationRatio", String.valueOf(s.allocationRatio()))
        .set("spark.dynamicAllocation.schedulerBacklogTimeout", seconds(s.backlogTimeout()))
        .set("spark.dynamicAllocation.sustainedSchedulerBacklogTimeout", seconds(s.sustainedBacklogTimeout()))
        .set("spark.dynamicAllocation.executorIdleTimeout", seconds(s.idleTimeout()))
        .set("spark.executor.cores", String.valueOf(s.executorCores()))
        .set("spark.task.cpus", String.valueOf(s.taskCpus()))
        // The simulator assumes an external shuffle service, as Spark-on-YARN users of dynamic
        // allocation run one; with tracking active instead, Spark tracks shuffle output itself.
        .set("spark.shuffle.service.enabled", String.valueOf(!s.shuffleTrackingActive()))
        .set("spark.dynamicAllocation.shuffleTracking.enabled", String.valueOf(s.shuffleTrackingActive()));
    if (!Durations.isInfinite(s.cachedIdleTimeout())) {
      c.set("spark.dynamicAllocation.cachedExecutorIdleTimeout", seconds(s.cachedIdleTimeout()));
    }
    if (!Durations.isInfinite(s.shuffleTimeout())) {
      c.set("spark.dynamicAllocation.shuffleTracking.timeout", s.shuffleTimeout().toMillis() + "ms");
    }
    return c;
  }

  /**
   * Spark reads these timeouts in whole seconds (a "500ms" becomes 0 and is refused): ours are
   * kept to the millisecond, so a sub-second value is one of the documented differences and is
   * rounded up here.
   */
  static String seconds(Duration d) {
    if (Durations.isInfinite(d)) {
      return Integer.MAX_VALUE + "s";
    }
    long ms = d.toMillis();
    return Math.max(1, (ms + 999) / 1000) + "s";
  }

  static ExecutorAllocationManager create(PolicySettings settings, ExecutorAllocationClient client, ManualClock clock) {
    SparkConf conf = conf(settings);
    // Spark keeps its default resource profile (and its tasks per executor) in a JVM-wide
    // singleton: make it this configuration's, as Spark's own suite does before each case.
    ResourceProfile$.MODULE$.reInitDefaultProfile(conf);
    LiveListenerBus bus = new LiveListenerBus(conf);
    ResourceProfileManager profiles = new ResourceProfileManager(conf, bus);
    return new ExecutorAllocationManager(client, bus, conf, Option.empty(), clock, profiles, false);
  }

  /** One pass of the manager's 100 ms loop: idle timeouts, the target, removals. */
  static void schedule(ExecutorAllocationManager m) {
    m.org$apache$spark$ExecutorAllocationManager$$schedule();
  }

  /** The manager's target for the default profile. */
  static int target(ExecutorAllocationManager m) {
    synchronized (m) {
      Option<Object> t = m.numExecutorsTargetPerResourceProfileId().get(DEFAULT_PROFILE);
      return t.isDefined() ? (Integer) t.get() : 0;
    }
  }

  static <T> Seq<T> seq(List<T> list) {
    return CollectionConverters.asScala(list).toSeq();
  }

  /**
   * {@link ExecutorAllocationClient} in Java terms: the Scala collections it passes are turned
   * into Java ones for the default profile, which is all the simulator uses.
   */
  abstract static class Client implements ExecutorAllocationClient {

    protected abstract boolean requested(int totalExecutors, int localityAwareTasks,
        Map<String, Integer> hostToLocalTaskCount);

    protected abstract List<String> kill(List<String> ids);

    protected abstract List<String> executorIds();

    protected abstract boolean isActive(String id);

    @Override
    public Seq<String> getExecutorIds() {
      return seq(executorIds());
    }

    @Override
    public boolean isExecutorActive(String id) {
      return isActive(id);
    }

    @Override
    public boolean requestTotalExecutors(scala.collection.immutable.Map<Object, Object> perProfile,
        scala.collection.immutable.Map<Object, Object> localityAwarePerProfile,
        scala.collection.immutable.Map<Object, scala.collection.immutable.Map<String, Object>> hostCountsPerProfile) {
      int total = (Integer) perProfile.getOrElse(DEFAULT_PROFILE, () -> 0);
      int aware = (Integer) localityAwarePerProfile.getOrElse(DEFAULT_PROFILE, () -> 0);
      Map<String, Integer> hosts = new TreeMap<>();
      Option<scala.collection.immutable.Map<String, Object>> h = hostCountsPerProfile.get(DEFAULT_PROFILE);
      if (h.isDefined()) {
        CollectionConverters.asJava(h.get()).forEach((host, n) -> hosts.put(host, (Integer) n));
      }
      return requested(total, aware, hosts);
    }

    @Override
    public boolean requestExecutors(int numAdditionalExecutors) {
      throw new UnsupportedOperationException("the manager sets totals; it never asks for more this way");
    }

    @Override
    public Seq<String> killExecutors(Seq<String> ids, boolean adjustTargetNumExecutors, boolean countFailures,
        boolean force) {
      return seq(kill(new ArrayList<>(CollectionConverters.asJava(ids))));
    }

    @Override
    public boolean decommissionExecutorsOnHost(String host) {
      return false;
    }

    @Override
    public boolean killExecutorsOnHost(String host) {
      return false;
    }
  }
}
