package org.elasticam.embedded;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A YARN cluster inside this JVM: one ResourceManager on ephemeral ports and N NodeManagers, NM
 * {@code i} on loopback address {@code 127.0.0.(i+1)} with fixed ports. Each NodeManager is a host
 * of its own, so node locality and node exclusion are real, and a NodeManager restarted with its
 * recovery state keeps its NodeId and its running containers.
 *
 * <p>One-shot: {@link #start()} once, then {@link #close()}. Not thread-safe; one owner drives it.
 */
public final class EmbeddedCluster implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedCluster.class);

  /**
   * What to start.
   *
   * @param workDir everything the cluster writes lives here (wiped per NodeManager at start)
   * @param nodeManagers how many NodeManagers, at most 254 (one loopback address each)
   * @param nodeMemoryMb memory each NodeManager offers
   * @param nodeVcores vcores each NodeManager offers
   * @param basePort NM {@code i} listens on {@code basePort + 10 i + {0, 1, 2}}; 0 picks a free range
   * @param applicationClasspath {@code yarn.application.classpath}; empty leaves it unset
   * @param extraConf set last on the ResourceManager, every NodeManager and the client conf
   * @param logToFile send Hadoop's logging (log4j, JVM-wide and for good) to
   *     {@code workDir/cluster.log} instead of the console; tests turn it off and keep their own
   *     log4j.properties
   * @param startTimeout how long start and restart wait for nodes to be RUNNING
   * @param shuffleService whether each NodeManager gets the shuffle service, and how (default: not)
   * @param partitionable each NodeManager reaches the ResourceManager's resource tracker through a
   *     {@link TcpProxy}, so {@link EmbeddedCluster#partitionFromResourceManager} can cut it off; and
   *     each NodeManager and shuffle service listens on another loopback address and is reached
   *     through proxies on its own, so {@link EmbeddedCluster#partitionShuffleService} and {@link
   *     EmbeddedCluster#partitionFromApplicationMasters} can cut those paths
   */
  public record Settings(
      Path workDir,
      int nodeManagers,
      int nodeMemoryMb,
      int nodeVcores,
      int basePort,
      List<String> applicationClasspath,
      Map<String, String> extraConf,
      boolean logToFile,
      Duration startTimeout,
      ShuffleServiceInstall shuffleService,
      boolean partitionable) {

    public Settings {
      Objects.requireNonNull(workDir, "workDir");
      workDir = workDir.toAbsolutePath().normalize();
      check(nodeManagers >= 1 && nodeManagers <= 254, "nodeManagers must be in [1, 254]", nodeManagers);
      check(nodeMemoryMb >= 128, "nodeMemoryMb must be at least 128", nodeMemoryMb);
      check(nodeVcores >= 1, "nodeVcores must be at least 1", nodeVcores);
      check(basePort == 0 || basePort >= 1024 && basePort + 10 * nodeManagers <= 65535,
          "basePort must be 0 or leave room for 10 ports per NodeManager below 65536", basePort);
      check(!startTimeout.isNegative() && !startTimeout.isZero(), "startTimeout must be positive", startTimeout);
      applicationClasspath = List.copyOf(applicationClasspath);
      extraConf = Map.copyOf(extraConf);
      Objects.requireNonNull(shuffleService, "shuffleService");
    }

    /** Two NodeManagers of 4096 MB and 4 vcores, free ports, logging to a file. */
    public static Settings in(Path workDir) {
      return new Settings(workDir, 2, 4096, 4, 0, List.of(), Map.of(), true, Duration.ofSeconds(60),
          ShuffleServiceInstall.none(), false);
    }

    public Settings withNodeManagers(int n) {
      return new Settings(workDir, n, nodeMemoryMb, nodeVcores, basePort, applicationClasspath, extraConf,
          logToFile, startTimeout, shuffleService, partitionable);
    }

    public Settings withNodeResources(int memoryMb, int vcores) {
      return new Settings(workDir, nodeManagers, memoryMb, vcores, basePort, applicationClasspath, extraConf,
          logToFile, startTimeout, shuffleService, partitionable);
    }

    public Settings withBasePort(int port) {
      return new Settings(workDir, nodeManagers, nodeMemoryMb, nodeVcores, port, applicationClasspath, extraConf,
          logToFile, startTimeout, shuffleService, partitionable);
    }

    public Settings withApplicationClasspath(List<String> paths) {
      return new Settings(workDir, nodeManagers, nodeMemoryMb, nodeVcores, basePort, paths, extraConf,
          logToFile, startTimeout, shuffleService, partitionable);
    }

    /** Adds (or replaces) one key of {@link #extraConf()}. */
    public Settings withConf(String key, String value) {
      Map<String, String> conf = new LinkedHashMap<>(extraConf);
      conf.put(key, value);
      return new Settings(workDir, nodeManagers, nodeMemoryMb, nodeVcores, basePort, applicationClasspath, conf,
          logToFile, startTimeout, shuffleService, partitionable);
    }

    /** Adds (or replaces) every key of {@code keys} in {@link #extraConf()}. */
    public Settings withConf(Map<String, String> keys) {
      Settings s = this;
      for (Map.Entry<String, String> e : keys.entrySet()) {
        s = s.withConf(e.getKey(), e.getValue());
      }
      return s;
    }

    public Settings withLogToFile(boolean toFile) {
      return new Settings(workDir, nodeManagers, nodeMemoryMb, nodeVcores, basePort, applicationClasspath, extraConf,
          toFile, startTimeout, shuffleService, partitionable);
    }

    public Settings withStartTimeout(Duration timeout) {
      return new Settings(workDir, nodeManagers, nodeMemoryMb, nodeVcores, basePort, applicationClasspath, extraConf,
          logToFile, timeout, shuffleService, partitionable);
    }

    /**
     * The ResourceManager keeps its state in a file-system state store under the work dir, so
     * {@link EmbeddedCluster#restartResourceManager()} recovers the running applications
     * (work-preserving: containers keep running); clients, AMs and NodeManagers retry every 500 ms
     * while it is down.
     */
    public Settings withResourceManagerRecovery() {
      return withConf(YarnConfiguration.RECOVERY_ENABLED, "true")
          .withConf(YarnConfiguration.RM_STORE,
              "org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore")
          .withConf(YarnConfiguration.FS_RM_STATE_STORE_URI, workDir.resolve("rm-state").toUri().toString())
          .withConf(YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS, "500");
    }

    /**
     * A secure cluster: Kerberos authentication, the ResourceManager and every NodeManager logging
     * in as {@code principal} from {@code keytab}. One principal for all daemons because they share
     * this JVM's one login user (each login replaces it); a host-free name (no {@code _HOST}) because
     * NodeManagers sit on 127.0.0.N and all of them use it. The JVM must already know the KDC
     * ({@code java.security.krb5.conf}); containers learn it from {@code krb5Conf} through the
     * NodeManagers' admin environment ({@code JAVA_TOOL_OPTIONS}), for the JVMs that log in
     * themselves (an AM with a keytab). Containers still run as this process's OS user with the
     * default container executor: a production secure cluster runs them as the submitting user with
     * the LinuxContainerExecutor, whose setuid binary no Maven artifact ships.
     */
    public Settings withKerberos(String principal, Path keytab, Path krb5Conf) {
      return withConf("hadoop.security.authentication", "kerberos")
          .withConf(YarnConfiguration.RM_PRINCIPAL, principal)
          .withConf(YarnConfiguration.RM_KEYTAB, keytab.toAbsolutePath().toString())
          .withConf(YarnConfiguration.NM_PRINCIPAL, principal)
          .withConf(YarnConfiguration.NM_KEYTAB, keytab.toAbsolutePath().toString())
          .withConf(YarnConfiguration.NM_ADMIN_USER_ENV, YarnConfiguration.DEFAULT_NM_ADMIN_USER_ENV
              + ",JAVA_TOOL_OPTIONS=-Djava.security.krb5.conf=" + krb5Conf.toAbsolutePath());
    }

    /**
     * Each NodeManager's heartbeats, and the way to each shuffle service, go through a proxy a test
     * can cut (see {@link TcpProxy}).
     */
    public Settings withPartitionableNodes() {
      return new Settings(workDir, nodeManagers, nodeMemoryMb, nodeVcores, basePort, applicationClasspath, extraConf,
          logToFile, startTimeout, shuffleService, true);
    }

    /** Installs the shuffle service in every NodeManager, as the README says (see {@link ShuffleServiceInstall}). */
    public Settings withShuffleService(ShuffleServiceInstall install) {
      return new Settings(workDir, nodeManagers, nodeMemoryMb, nodeVcores, basePort, applicationClasspath, extraConf,
          logToFile, startTimeout, install, partitionable);
    }

    private static void check(boolean ok, String rule, Object value) {
      if (!ok) {
        throw new IllegalArgumentException(rule + ", got " + value);
      }
    }
  }

  private enum State { NEW, STARTED, STOPPED }

  private final Settings settings;
  private final List<NodeManagerHandle> nodeManagers = new ArrayList<>();
  /** With {@link Settings#partitionable()}: NodeManager i's path to the resource tracker. */
  private final List<TcpProxy> trackerProxies = new ArrayList<>();
  /** With {@link Settings#partitionable()} and a shuffle service: everyone's path to NodeManager i's service. */
  private final List<TcpProxy> shuffleProxies = new ArrayList<>();
  /** With {@link Settings#partitionable()}: the AMs' path to NodeManager i's container manager. */
  private final List<TcpProxy> rpcProxies = new ArrayList<>();
  /** Every proxy in front of a NodeManager's ports. */
  private final List<TcpProxy> passThroughProxies = new ArrayList<>();
  private State state = State.NEW;
  private ResourceManager resourceManager;
  private Configuration clientSite;
  private NodeWatch nodes;

  /** Hosts in the exclude file: being, or done being, decommissioned. */
  private final java.util.Set<String> excluded = new java.util.TreeSet<>();

  public EmbeddedCluster(Settings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  /** Creates and starts a cluster; on failure nothing is left running. */
  public static EmbeddedCluster start(Settings settings) throws IOException, InterruptedException {
    EmbeddedCluster cluster = new EmbeddedCluster(settings);
    cluster.start();
    return cluster;
  }

  /**
   * Starts the ResourceManager, then the NodeManagers, writes the client configuration to
   * {@link #confDir()} and returns once every node is RUNNING. On failure everything started so
   * far is stopped again.
   */
  public void start() throws IOException, InterruptedException {
    if (state != State.NEW) {
      throw new IllegalStateException("an EmbeddedCluster starts once; this one is " + state);
    }
    state = State.STARTED;
    long t0 = System.nanoTime();
    try {
      ClusterFiles.prepare(settings);
      if (settings.logToFile()) {
        ClusterLogging.toFile(ClusterFiles.clusterLog(settings));
      }
      startResourceManager();
      startNodeManagers();
      ClusterFiles.writeClientConf(clientSite, confDir());
      nodes.awaitRunning(nodeIds(), settings.startTimeout());
    } catch (IOException | InterruptedException | RuntimeException e) {
      stop();
      throw e;
    }
    LOG.info("Embedded cluster up in {} ms: nodes {}, conf {}", (System.nanoTime() - t0) / 1_000_000,
        nodeHosts(), confDir());
  }

  private void startResourceManager() {
    // Several NodeManagers in one JVM register metrics sources of the same name; this mode makes
    // the names unique instead of failing. JVM-wide, as the metrics system is.
    DefaultMetricsSystem.setMiniClusterMode(true);
    Configuration shared = ClusterConf.shared(settings);
    resourceManager = new ResourceManager();
    resourceManager.init(ClusterConf.resourceManager(shared));
    resourceManager.start();
    clientSite = ClusterConf.clientSite(shared, resourceManager.getConfig());
    nodes = new NodeWatch(ClusterConf.client(clientSite));
  }

  private void startNodeManagers() throws IOException {
    int basePort = settings.basePort() != 0 ? settings.basePort() : Ports.freeBase(settings.nodeManagers());
    for (int i = 0; i < settings.nodeManagers(); i++) {
      NodeAddress address = NodeAddress.of(i, basePort);
      if (settings.partitionable()) {
        address = address.behindProxies();
        rpcProxies.add(forward(address, address.rpcPort(), "nm" + i + "-rpc"));
        forward(address, address.localizerPort(), "nm" + i + "-localizer");
        forward(address, address.webPort(), "nm" + i + "-web");
        if (settings.shuffleService().installed()) {
          shuffleProxies.add(forward(address, address.shufflePort(), "nm" + i + "-shuffle"));
        }
      }
      org.apache.hadoop.yarn.conf.YarnConfiguration conf = ClusterConf.nodeManager(clientSite, settings, address);
      if (settings.partitionable()) {
        TcpProxy proxy = TcpProxy.start(address.host(), org.apache.hadoop.net.NetUtils.createSocketAddr(
            clientSite.get(YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS)), "nm" + i + "-to-rm");
        trackerProxies.add(proxy);
        conf.set(YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS, proxy.address());
      }
      NodeManagerHandle nm = new NodeManagerHandle(address, conf, settings.shuffleService());
      nodeManagers.add(nm);
      nm.start();
    }
  }

  /** A proxy on the node's address in front of what listens on its bind address, closed with the cluster. */
  private TcpProxy forward(NodeAddress a, int port, String name) throws IOException {
    InetSocketAddress to = new InetSocketAddress(a.bindHost(), port);
    TcpProxy p = TcpProxy.start(new InetSocketAddress(a.host(), port), () -> to, name);
    passThroughProxies.add(p);
    return p;
  }

  /**
   * Stops NodeManager {@code i} as a supervised NodeManager stops (its containers keep running and
   * the ResourceManager is not told), waits until its ports are free, starts it again on the same
   * addresses and recovery state, and returns once the node is RUNNING again with the same NodeId.
   */
  public void restartNodeManager(int i) throws IOException, InterruptedException {
    requireStarted();
    NodeManagerHandle nm = nodeManager(i);
    NodeId before = nm.nodeId();
    long t0 = System.nanoTime();
    nm.stopForRestart();
    nm.awaitPortsFree(settings.startTimeout());
    nm.start();
    if (!before.equals(nm.nodeId())) {
      throw new IOException("NodeManager " + i + " came back as " + nm.nodeId() + ", not " + before);
    }
    nodes.awaitRunning(List.of(before), settings.startTimeout());
    LOG.info("NodeManager {} ({}) restarted in {} ms", i, before, (System.nanoTime() - t0) / 1_000_000);
  }

  /**
   * Stops NodeManager {@code i} for good, as a machine that dies: its containers are killed and the
   * ResourceManager is not told, so it finds the node LOST once its heartbeats have been missing for
   * {@code yarn.nm.liveness-monitor.expiry-interval-ms}.
   */
  public void loseNodeManager(int i) {
    requireStarted();
    nodeManager(i).stopForGood();
    LOG.info("NodeManager {} ({}) stopped for good", i, nodeManager(i).nodeId());
  }

  /**
   * Stops the ResourceManager and starts a new one on the same addresses, which recovers the
   * applications from its state store: running containers live on, NodeManagers re-register, and
   * ApplicationMasters resync. Needs {@link Settings#withResourceManagerRecovery()}.
   */
  public void restartResourceManager() throws IOException, InterruptedException {
    requireStarted();
    if (!resourceManager.getConfig().getBoolean(YarnConfiguration.RECOVERY_ENABLED, false)) {
      throw new IllegalStateException("the ResourceManager has no state store: start with withResourceManagerRecovery()");
    }
    long t0 = System.nanoTime();
    resourceManager.stop();
    // Its scheduler's queue metrics are JVM-wide; the new ResourceManager registers them afresh.
    org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics.clearQueueMetrics();
    Configuration next = ClusterConf.resourceManager(ClusterConf.shared(settings));
    ClusterConf.pinResourceManagerAddresses(next, clientSite);
    resourceManager = new ResourceManager();
    resourceManager.init(next);
    resourceManager.start();
    nodes.awaitRunning(nodeIds(), settings.startTimeout());
    LOG.info("ResourceManager restarted in {} ms", (System.nanoTime() - t0) / 1_000_000);
  }

  /**
   * Cuts NodeManager {@code i} off from the ResourceManager: its heartbeats go nowhere, so the
   * ResourceManager finds it LOST after {@code yarn.nm.liveness-monitor.expiry-interval-ms}, while
   * the NodeManager, its containers and its shuffle service go on running and reachable by everyone
   * else. Needs {@link Settings#withPartitionableNodes()}.
   */
  public void partitionFromResourceManager(int i) {
    trackerProxy(i).cut();
  }

  /** Ends the partition: the NodeManager reconnects and the ResourceManager takes it back. */
  public void healPartition(int i) {
    trackerProxy(i).heal();
  }

  /**
   * Cuts NodeManager {@code i}'s shuffle service off from everyone: executors and reducers on other
   * hosts (and on its own, through its address) reach a port that accepts connections and never
   * answers, as across a partition, while the service, its NodeManager and the heartbeats to the
   * ResourceManager go on. Needs {@link Settings#withPartitionableNodes()} and a shuffle service.
   */
  public void partitionShuffleService(int i) {
    shuffleProxy(i).cut();
  }

  /** Ends {@link #partitionShuffleService}: connections that lost bytes are closed; new ones get through. */
  public void healShuffleService(int i) {
    shuffleProxy(i).heal();
  }

  /**
   * Cuts NodeManager {@code i}'s container manager off from the ApplicationMasters: starting and
   * stopping containers there get no answer, as across a partition, while the node heartbeats to
   * the ResourceManager and runs what it runs. Needs {@link Settings#withPartitionableNodes()}.
   */
  public void partitionFromApplicationMasters(int i) {
    trackerProxy(i);
    rpcProxies.get(i).cut();
  }

  /** Ends {@link #partitionFromApplicationMasters}. */
  public void healFromApplicationMasters(int i) {
    trackerProxy(i);
    rpcProxies.get(i).heal();
  }

  private TcpProxy shuffleProxy(int i) {
    trackerProxy(i);
    if (shuffleProxies.isEmpty()) {
      throw new IllegalStateException("the cluster was started without a shuffle service");
    }
    return shuffleProxies.get(i);
  }

  private TcpProxy trackerProxy(int i) {
    requireStarted();
    if (!settings.partitionable()) {
      throw new IllegalStateException("the cluster was started without withPartitionableNodes()");
    }
    return trackerProxies.get(i);
  }

  /**
   * Decommissions NodeManager {@code i} gracefully, as {@code yarn rmadmin -refreshNodes -g <timeout>}
   * does with the node in the exclude file: the ResourceManager marks it DECOMMISSIONING, places
   * nothing new on it, tells the applications with containers there, and decommissions it once
   * they are done with it or the timeout ends. The exclude file lives in the work dir.
   */
  public void decommissionGracefully(int i, Duration timeout) throws IOException {
    requireStarted();
    excluded.add(nodeId(i).getHost());
    refreshNodes((int) timeout.toSeconds());
    LOG.info("NodeManager {} ({}) decommissioning, timeout {}", i, nodeId(i), timeout);
  }

  /** Takes NodeManager {@code i} out of the exclude file again: a decommissioning node is recommissioned. */
  public void recommission(int i) throws IOException {
    requireStarted();
    excluded.remove(nodeId(i).getHost());
    refreshNodes(null);
    LOG.info("NodeManager {} ({}) recommissioned", i, nodeId(i));
  }

  private void refreshNodes(Integer timeoutSeconds) throws IOException {
    java.nio.file.Path file = settings.workDir().resolve("nodes.exclude");
    java.nio.file.Files.write(file, excluded);
    Configuration c = new Configuration(resourceManager.getConfig());
    c.set(YarnConfiguration.RM_NODES_EXCLUDE_FILE_PATH, file.toString());
    try {
      resourceManager.getRMContext().getNodesListManager().refreshNodesGracefully(c, timeoutSeconds);
    } catch (org.apache.hadoop.yarn.exceptions.YarnException e) {
      throw new IOException("refreshing the ResourceManager's node lists failed", e);
    }
  }

  /**
   * Stops the NodeManagers (killing their containers) and then the ResourceManager. Idempotent;
   * failures are logged, never thrown, so a cleanup path always runs to the end.
   */
  public void stop() {
    if (state == State.STOPPED) {
      return;
    }
    state = State.STOPPED;
    long t0 = System.nanoTime();
    if (nodes != null) {
      quietly("the node watch", nodes::close);
    }
    for (NodeManagerHandle nm : nodeManagers) {
      nm.stopForGood();
    }
    if (resourceManager != null) {
      quietly("the ResourceManager", resourceManager::stop);
    }
    trackerProxies.forEach(TcpProxy::close);
    passThroughProxies.forEach(TcpProxy::close);
    LOG.info("Embedded cluster stopped in {} ms", (System.nanoTime() - t0) / 1_000_000);
  }

  private static void quietly(String what, Runnable stop) {
    try {
      stop.run();
    } catch (RuntimeException e) {
      LOG.warn("Stopping {} failed", what, e);
    }
  }

  @Override
  public void close() {
    stop();
  }

  public Settings settings() {
    return settings;
  }

  public Path workDir() {
    return settings.workDir();
  }

  /** The client configuration's directory (yarn-site.xml, core-site.xml): put it first on a classpath. */
  public Path confDir() {
    return ClusterFiles.confDir(settings);
  }

  /** A copy of the client configuration: what a client with {@link #confDir()} on its classpath sees. */
  public Configuration configuration() {
    requireStarted();
    return ClusterConf.client(clientSite);
  }

  /**
   * Host names of the nodes as the ResourceManager names them (127.0.0.1 is {@code localhost}),
   * NodeManager 0 first: the hosts of the NodeIds that start matched against the node reports.
   */
  public List<String> nodeHosts() {
    return nodeIds().stream().map(NodeId::getHost).toList();
  }

  /** NodeManager {@code i}'s NodeId, stable across {@link #restartNodeManager(int)}. */
  public NodeId nodeId(int i) {
    requireStarted();
    return nodeManager(i).nodeId();
  }

  /** Where NodeManager {@code i} keeps container logs: {@code <dir>/<appId>/<containerId>/}. */
  public Path nodeManagerLogDir(int i) {
    checkIndex(i);
    return ClusterFiles.nodeManagerDir(settings, i).resolve("logs");
  }

  /** NodeManager {@code i}'s local dir: {@code usercache/<user>/appcache/<appId>/} and the users' own dirs beside appcache. */
  public Path nodeManagerLocalDir(int i) {
    checkIndex(i);
    return ClusterFiles.nodeManagerDir(settings, i).resolve("local");
  }

  /**
   * Where NodeManager {@code i}'s shuffle service listens: its loopback address and a fixed port
   * (the same after {@link #restartNodeManager(int)}).
   *
   * @throws IllegalStateException when the cluster has no shuffle service
   */
  public InetSocketAddress shuffleServiceAddress(int i) {
    if (!settings.shuffleService().installed()) {
      throw new IllegalStateException("the cluster was started without the shuffle service");
    }
    NodeAddress a = nodeManager(i).address();
    return InetSocketAddress.createUnresolved(a.host(), a.shufflePort());
  }

  /** The ResourceManager's web UI, {@code host:port}. */
  public String resourceManagerWebAddress() {
    requireStarted();
    return clientSite.get(YarnConfiguration.RM_WEBAPP_ADDRESS);
  }

  /**
   * The ACLs the ResourceManager holds for an application, as its submission's launch context set
   * them and as the ResourceManager enforces them; empty when it set none.
   */
  public Map<org.apache.hadoop.yarn.api.records.ApplicationAccessType, String> applicationAcls(
      org.apache.hadoop.yarn.api.records.ApplicationId id) {
    requireStarted();
    org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp app = resourceManager.getRMContext().getRMApps().get(id);
    if (app == null) {
      throw new IllegalArgumentException(id + " is not known to the ResourceManager");
    }
    Map<org.apache.hadoop.yarn.api.records.ApplicationAccessType, String> acls =
        app.getApplicationSubmissionContext().getAMContainerSpec().getApplicationACLs();
    return acls == null ? Map.of() : Map.copyOf(acls);
  }

  private List<NodeId> nodeIds() {
    requireStarted();
    return nodeManagers.stream().map(NodeManagerHandle::nodeId).toList();
  }

  private NodeManagerHandle nodeManager(int i) {
    checkIndex(i);
    requireStarted();
    return nodeManagers.get(i);
  }

  private void checkIndex(int i) {
    if (i < 0 || i >= settings.nodeManagers()) {
      throw new IndexOutOfBoundsException("NodeManager " + i + " of " + settings.nodeManagers());
    }
  }

  private void requireStarted() {
    if (state != State.STARTED) {
      throw new IllegalStateException("the cluster is " + state);
    }
  }
}
