package org.elasticam.embedded;

import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.elasticam.embedded.EmbeddedCluster.Settings;

/**
 * The embedded cluster's configuration, in three layers: the keys every daemon and client shares,
 * what only the ResourceManager needs, and each NodeManager's own addresses and directories. The
 * measured reasons behind the values are in shared/notes/hadoop-on-these-machines.md (§1.3, P6–P9,
 * P20, P22).
 */
final class ClusterConf {

  /** Ephemeral ResourceManager ports: parallel builds never clash; the client conf records the real ones. */
  private static final String RM_HOST = "localhost:0";

  private ClusterConf() {}

  /** Only the keys we set, no defaults: this is what the client conf files carry. */
  static Configuration shared(Settings s) {
    Configuration c = new Configuration(false);
    // Keep every Hadoop default path (/tmp/hadoop-${user.name}/...) inside the work dir.
    c.set("hadoop.tmp.dir", ClusterFiles.tmpDir(s).toString());
    c.set("fs.defaultFS", "file:///");
    scheduling(c);
    nodeManagerDefaults(c, s);
    if (!s.applicationClasspath().isEmpty()) {
      // The conf dir first: containers (our AM among them) find the ResourceManager through it.
      List<String> cp = new java.util.ArrayList<>();
      cp.add(ClusterFiles.confDir(s).toAbsolutePath().toString());
      cp.addAll(s.applicationClasspath());
      c.set(YarnConfiguration.YARN_APPLICATION_CLASSPATH, String.join(",", cp));
    }
    for (Map.Entry<String, String> e : s.extraConf().entrySet()) {
      c.set(e.getKey(), e.getValue());
    }
    return c;
  }

  private static void scheduling(Configuration c) {
    // NM heartbeats drive scheduling: 100 ms instead of 1 s cuts allocation latency from ~2 s to ~0.25 s.
    c.setLong(YarnConfiguration.RM_NM_HEARTBEAT_INTERVAL_MS, 100);
    // The 1024 MB default would round every small executor up to 1 GB.
    c.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
    // Our own queue layout, so the cluster does not depend on a capacity-scheduler.xml that only
    // hadoop-yarn-server-tests' test jar happens to carry.
    c.set("yarn.scheduler.capacity.root.queues", "default");
    c.set("yarn.scheduler.capacity.root.default.capacity", "100");
    c.set("yarn.scheduler.capacity.root.default.maximum-capacity", "100");
    // At 0.1 two 4 GB nodes admit one 512 MB AM at a time; concurrent applications need more.
    c.set("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5");
    // The scheduler lets a relaxed node request go elsewhere after more than
    // min(nodes, delay) missed offers. 1 means: wait one round of heartbeats (~100-200 ms on 2
    // nodes) for the named node, so delay scheduling exists here as on a real cluster; the tests
    // jar's -1 turns it off and the real default 40 is capped at the node count anyway.
    c.setInt("yarn.scheduler.capacity.node-locality-delay", 1);
  }

  private static void nodeManagerDefaults(Configuration c, Settings s) {
    c.setInt(YarnConfiguration.NM_PMEM_MB, s.nodeMemoryMb());
    c.setInt(YarnConfiguration.NM_VCORES, s.nodeVcores());
    // YARN counts 100 - usable/total as used (69 % on these machines): at the default 90 % threshold a
    // nearly full disk marks every node UNHEALTHY and applications wait forever.
    c.set(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, "99.0");
    // A JVM's virtual size (~2.5 GB) is far beyond any container's vmem allowance.
    c.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    // Fast stop: without these a NodeManager waits ~16 s for finished applications' logs.
    c.setLong(YarnConfiguration.NM_LOG_RETAIN_SECONDS, 1);
    c.setLong(YarnConfiguration.NM_PROCESS_KILL_WAIT_MS, 500);
    c.setLong(YarnConfiguration.NM_SLEEP_DELAY_BEFORE_SIGKILL_MS, 100);
    // Keeps container dirs and logs for a post-mortem; the deletion service drops them on stop.
    c.setLong(YarnConfiguration.DEBUG_NM_DELETE_DELAY_SEC, 3600);
    // Supervised recovery: a restarted NodeManager finds its containers still running.
    c.setBoolean(YarnConfiguration.NM_RECOVERY_ENABLED, true);
    c.setBoolean(YarnConfiguration.NM_RECOVERY_SUPERVISED, true);
    // Gives containers JAVA_HOME although this process has none (see the class).
    c.set(YarnConfiguration.NM_CONTAINER_EXECUTOR, EmbeddedContainerExecutor.class.getName());
  }

  /** The ResourceManager's full configuration. */
  static YarnConfiguration resourceManager(Configuration shared) {
    YarnConfiguration c = new YarnConfiguration();
    setAll(c, shared);
    for (String key : rmAddressKeys()) {
      c.set(key, RM_HOST);
    }
    // Only with this flag does the ResourceManager write its web UI's ephemeral port back into its conf.
    c.setBoolean(YarnConfiguration.IS_MINI_YARN_CLUSTER, true);
    c.set(YarnConfiguration.FS_NODE_ATTRIBUTE_STORE_ROOT_DIR,
        "file://" + shared.get("hadoop.tmp.dir") + "/node-attributes");
    return c;
  }

  /**
   * What a client must know beyond Hadoop's defaults: the shared keys plus the addresses the
   * started ResourceManager actually listens on. No defaults of its own.
   */
  static Configuration clientSite(Configuration shared, Configuration startedRm) {
    Configuration c = new Configuration(shared);
    for (String key : rmAddressKeys()) {
      c.set(key, startedRm.get(key));
    }
    return c;
  }

  /** Hadoop's defaults under the client site: what a client with the conf dir on its classpath sees. */
  static YarnConfiguration client(Configuration clientSite) {
    YarnConfiguration c = new YarnConfiguration();
    setAll(c, clientSite);
    return c;
  }

  /**
   * Sets, not adds as a resource: the CapacityScheduler reads its keys from a copy of this conf plus
   * capacity-scheduler.xml, and a resource file found on the classpath (hadoop-yarn-server-tests'
   * sets maximum-am-resource-percent 0.1) outranks earlier resources, though not set values.
   */
  private static void setAll(Configuration target, Configuration keys) {
    for (Map.Entry<String, String> e : keys) {
      target.set(e.getKey(), e.getValue());
    }
  }

  /** NodeManager {@code a.index()}'s full configuration. */
  static YarnConfiguration nodeManager(Configuration clientSite, Settings s, NodeAddress a) {
    YarnConfiguration c = client(clientSite);
    c.set("yarn.nodemanager.hostname", a.host());
    c.set(YarnConfiguration.NM_ADDRESS, a.rpc());
    c.set(YarnConfiguration.NM_LOCALIZER_ADDRESS, a.localizer());
    c.set(YarnConfiguration.NM_WEBAPP_ADDRESS, a.web());
    if (a.isBehindProxies()) {
      c.set(YarnConfiguration.NM_BIND_HOST, a.bindHost());
    }
    c.set(YarnConfiguration.NM_LOCAL_DIRS, ClusterFiles.nodeManagerDir(s, a.index()).resolve("local").toString());
    c.set(YarnConfiguration.NM_LOG_DIRS, ClusterFiles.nodeManagerDir(s, a.index()).resolve("logs").toString());
    c.set(YarnConfiguration.NM_RECOVERY_DIR, ClusterFiles.nodeManagerDir(s, a.index()).resolve("recovery").toString());
    c.set(EmbeddedContainerExecutor.SITE_DIR, ClusterFiles.confDir(s).toString());
    if (s.shuffleService().installed()) {
      shuffleService(c, s.shuffleService(), a);
    }
    return c;
  }

  /**
   * The README's yarn-site.xml for the shuffle service, plus what several NodeManagers in one JVM
   * need apart: each its own address, port and metrics name.
   */
  static void shuffleService(Configuration c, ShuffleServiceInstall install, NodeAddress a) {
    String name = ShuffleServiceInstall.SERVICE_NAME;
    String services = c.getTrimmed(YarnConfiguration.NM_AUX_SERVICES, "");
    c.set(YarnConfiguration.NM_AUX_SERVICES, services.isEmpty() ? name : services + "," + name);
    c.set("yarn.nodemanager.aux-services." + name + ".class", ShuffleServiceInstall.SERVICE_CLASS);
    if (install.mode() == ShuffleServiceInstall.Mode.ISOLATED) {
      c.set("yarn.nodemanager.aux-services." + name + ".classpath", install.jar().toString());
    }
    c.setInt("elasticam.shuffle.port", a.shufflePort());
    c.set("elasticam.shuffle.host", a.bindHost());
    c.set("elasticam.shuffle.metricsName", "ElasticamShuffle-nm" + a.index());
  }

  /** A restarted ResourceManager listens where clients, NodeManagers and AMs knew the old one. */
  static void pinResourceManagerAddresses(Configuration rm, Configuration clientSite) {
    for (String key : rmAddressKeys()) {
      rm.set(key, clientSite.get(key));
    }
  }

  private static List<String> rmAddressKeys() {
    return List.of(YarnConfiguration.RM_ADDRESS, YarnConfiguration.RM_SCHEDULER_ADDRESS,
        YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS, YarnConfiguration.RM_ADMIN_ADDRESS,
        YarnConfiguration.RM_WEBAPP_ADDRESS);
  }
}
