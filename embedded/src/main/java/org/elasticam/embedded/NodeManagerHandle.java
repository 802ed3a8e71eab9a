package org.elasticam.embedded;

import java.io.IOException;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One NodeManager slot: its address and configuration outlive the NodeManager instances started in
 * it (a Hadoop service starts once, so a restart is a new instance on the same recovery state).
 */
final class NodeManagerHandle {

  private static final Logger LOG = LoggerFactory.getLogger(NodeManagerHandle.class);

  private final NodeAddress address;
  private final Configuration conf;
  private final ShuffleServiceInstall shuffle;
  private NodeManager nodeManager;
  private NodeManagerClasspath classpath;
  private NodeId nodeId;

  NodeManagerHandle(NodeAddress address, Configuration conf, ShuffleServiceInstall shuffle) {
    this.address = address;
    this.conf = conf;
    this.shuffle = shuffle;
  }

  NodeAddress address() {
    return address;
  }

  /** Returns once the NodeManager has registered with the ResourceManager (registration is synchronous). */
  void start() {
    nodeManager = new NodeManager();
    // A copy: services write derived values into the conf they are given.
    initWithClasspath(new YarnConfiguration(conf));
    // Guice web apps in one JVM share one servlet pipeline: the last one started answers for all,
    // so every NodeManager's UI would show the last NodeManager and the ResourceManager's UI would
    // be gone (404). Without NodeManager UIs the ResourceManager's works; container logs are on disk.
    nodeManager.disableWebServer();
    nodeManager.start();
    nodeId = nodeManager.getNMContext().getNodeId();
  }

  /**
   * Initialises the NodeManager; with the shuffle jar "on its classpath", under a class loader that
   * sees it (the NodeManager loads aux-service classes through a fresh Configuration, whose class
   * loader is the thread's context loader). Each start is a new NodeManager process: a new loader.
   */
  private void initWithClasspath(Configuration c) {
    if (shuffle.mode() != ShuffleServiceInstall.Mode.CLASSPATH) {
      nodeManager.init(c);
      return;
    }
    classpath = new NodeManagerClasspath(shuffle.jar(), NodeManagerHandle.class.getClassLoader());
    Thread t = Thread.currentThread();
    ClassLoader before = t.getContextClassLoader();
    t.setContextClassLoader(classpath);
    try {
      nodeManager.init(c);
    } finally {
      t.setContextClassLoader(before);
    }
  }

  NodeId nodeId() {
    return nodeId;
  }

  /**
   * Stops as a supervised NodeManager does: containers keep running, the ResourceManager is not
   * told, the recovery state stays for the next instance.
   */
  void stopForRestart() {
    nodeManager.stop();
    closeClasspath();
  }

  private void closeClasspath() {
    if (classpath != null) {
      classpath.closeQuietly();
      classpath = null;
    }
  }

  /**
   * Stops for good: marked decommissioned, the NodeManager kills its containers (else they would
   * outlive this JVM, supervised as they are) and drops its recovery state. Never throws.
   */
  void stopForGood() {
    if (nodeManager == null) {
      return;
    }
    try {
      if (nodeManager.getNMContext() != null) {
        nodeManager.getNMContext().setDecommissioned(true);
      }
      nodeManager.stop();
    } catch (RuntimeException e) {
      LOG.warn("Stopping NodeManager {} ({}) failed", address.index(), nodeId, e);
    }
    closeClasspath();
  }

  /** A NodeManager started too early finds its old sockets still bound (BindException). */
  void awaitPortsFree(Duration timeout) throws IOException, InterruptedException {
    Poll.until(() -> Ports.allFree(address), timeout, Duration.ofMillis(50),
        "the ports of NodeManager " + address.index() + " to be free", () -> address.toString());
  }
}
