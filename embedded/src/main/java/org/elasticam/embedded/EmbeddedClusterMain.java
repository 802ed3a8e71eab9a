package org.elasticam.embedded;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Starts an embedded cluster and keeps it up until Ctrl-C, for poking at it by hand:
 * {@code EmbeddedClusterMain [workDir [nodeManagers]]}. Point a client at it with the printed conf
 * dir first on its classpath (or {@code HADOOP_CONF_DIR}).
 */
public final class EmbeddedClusterMain {

  private EmbeddedClusterMain() {}

  public static void main(String[] args) throws Exception {
    Path workDir = Path.of(args.length > 0 ? args[0] : "target/embedded-cluster");
    EmbeddedCluster.Settings settings = EmbeddedCluster.Settings.in(workDir);
    if (args.length > 1) {
      settings = settings.withNodeManagers(Integer.parseInt(args[1]));
    }
    EmbeddedCluster cluster = EmbeddedCluster.start(settings);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.out.println("stopping the embedded cluster");
      cluster.close();
      stopped.countDown();
    }, "embedded-cluster-shutdown"));
    System.out.println("conf dir:    " + cluster.confDir());
    System.out.println("node hosts:  " + cluster.nodeHosts());
    System.out.println("RM web UI:   http://" + cluster.resourceManagerWebAddress());
    System.out.println("cluster log: " + cluster.workDir().resolve("cluster.log"));
    System.out.println("Ctrl-C stops it.");
    stopped.await();
  }
}
