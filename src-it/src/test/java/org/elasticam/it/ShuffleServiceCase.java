package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.client.api.NMClient;
import org.elasticam.embedded.EmbeddedCluster;
import org.elasticam.embedded.ShuffleServiceInstall;
import org.elasticam.embedded.UnmanagedApplication;
import org.elasticam.shuffle.client.ClientSettings;
import org.elasticam.shuffle.client.FetchedBlock;
import org.elasticam.shuffle.client.FetchedBlocks;
import org.elasticam.shuffle.client.ServiceAddress;
import org.elasticam.shuffle.client.ShuffleClient;
import org.elasticam.shuffle.protocol.FetchRequest;
import org.elasticam.shuffle.protocol.MapIdSet;
import org.elasticam.shuffle.protocol.PortMetadata;
import org.elasticam.shuffle.protocol.ReduceRange;
import org.elasticam.shuffle.protocol.SecretEnvelope;
import org.elasticam.testkit.shuffle.ShuffleFixtures;
import org.elasticam.time.Clock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shuffle service inside real NodeManagers of the embedded cluster, loaded from the shaded jar
 * as the README configures it; subclasses choose the way. A container started with the
 * application's secret envelope in its service data initialises the application on its node, as an
 * executor's would; the test then plays the executor: writes map output into the container's
 * LOCAL_DIRS, registers them and fetches over the node's service port.
 */
@Timeout(240)
abstract class ShuffleServiceCase {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final int NODE = 1;
  private static final int MAPS = 4;
  private static final int REDUCES = 3;

  private static EmbeddedCluster cluster;

  static void startCluster(String name, ShuffleServiceInstall.Mode mode) throws Exception {
    Path jar = ShuffleJar.path();
    ShuffleServiceInstall install = mode == ShuffleServiceInstall.Mode.ISOLATED ? ShuffleServiceInstall.isolated(jar)
        : ShuffleServiceInstall.onClasspath(jar);
    cluster = EmbeddedCluster.start(EmbeddedCluster.Settings.in(Path.of("target/it-clusters/" + name))
        .withLogToFile(false).withShuffleService(install));
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static int blockSize(int map, int reduce) {
    return 5000 * map + 17 * reduce + 1;
  }

  @Test
  void servesRegisteredBlocksShowsItsMetricsInJmxAndServesThemAgainAfterARestart() throws Exception {
    byte[] secret = ShuffleFixtures.newSecret();
    try (UnmanagedApplication app = UnmanagedApplication.register(cluster.configuration(), getClass().getSimpleName(),
        WAIT)) {
      NMClient nm = NMClient.createNMClient();
      nm.init(cluster.configuration());
      nm.start();
      try {
        String appId = app.attemptId().getApplicationId().toString();
        Container c = allocateOn(app, cluster.nodeHosts().get(NODE));
        Map<String, ByteBuffer> meta = nm.startContainer(c, executorLike(secret));
        InetSocketAddress at = cluster.shuffleServiceAddress(NODE);
        assertEquals(new PortMetadata(at.getPort(), false), PortMetadata.decode(meta.get(ShuffleServiceInstall.SERVICE_NAME)),
            "the port reaches the AM in the start-containers response");

        List<Path> localDirs = awaitLocalDirs(c);
        ShuffleFixtures.writeMaps(localDirs, 0, MAPS, REDUCES, ShuffleServiceCase::blockSize);
        ServiceAddress service = ServiceAddress.plain(at.getHostString(), at.getPort());
        try (ShuffleClient client = client(appId, secret)) {
          client.register(service, "1", localDirs);
          assertAllBlocks(client, service, appId);
        }
        assertJmxCounts();

        cluster.restartNodeManager(NODE);
        try (ShuffleClient client = client(appId, secret)) {
          assertAllBlocks(client, service, appId);
        }
        nm.stopContainer(c.getId(), c.getNodeId());
      } finally {
        nm.stop();
      }
    }
  }

  private static ShuffleClient client(String appId, byte[] secret) {
    return new ShuffleClient(appId, secret, ClientSettings.defaults().withRetries(3, Duration.ofMillis(500)),
        Clock.system());
  }

  private static void assertAllBlocks(ShuffleClient client, ServiceAddress service, String appId) throws Exception {
    FetchRequest r = new FetchRequest(appId, "1", 0, new ReduceRange(0, REDUCES - 1), MapIdSet.range(0, MAPS - 1));
    try (FetchedBlocks got = client.fetch(service, r).get(60, TimeUnit.SECONDS)) {
      assertEquals(MAPS * REDUCES, got.blocks().size());
      for (FetchedBlock b : got.blocks()) {
        assertArrayEquals(ShuffleFixtures.blockBytes(0, b.mapId(), b.reduceId(), blockSize(b.mapId(), b.reduceId())),
            b.data(), b.toString());
      }
    }
  }

  /** The executor's part YARN sees: our service data, and a process that stays up (so recovery keeps it). */
  private static ContainerLaunchContext executorLike(byte[] secret) {
    String logDir = ApplicationConstants.LOG_DIR_EXPANSION_VAR;
    String command = "echo \"$LOCAL_DIRS\" > " + logDir + "/local_dirs.tmp && mv " + logDir + "/local_dirs.tmp "
        + logDir + "/local_dirs && sleep 120";
    return ContainerLaunchContext.newInstance(Map.of(), Map.of(), List.of(command),
        Map.of(ShuffleServiceInstall.SERVICE_NAME, new SecretEnvelope(secret, true).encode()), null, null);
  }

  private static List<Path> awaitLocalDirs(Container c) throws Exception {
    Path file = cluster.nodeManagerLogDir(NODE).resolve(c.getId().getApplicationAttemptId().getApplicationId()
        .toString()).resolve(c.getId().toString()).resolve("local_dirs");
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!Files.exists(file)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the container never wrote " + file);
      }
      Thread.sleep(100);
    }
    List<Path> dirs = new ArrayList<>();
    for (String d : Files.readString(file).trim().split(",")) {
      dirs.add(Path.of(d));
    }
    assertTrue(dirs.get(0).toString().contains("/appcache/"), "application-level dirs: " + dirs);
    return dirs;
  }

  private static Container allocateOn(UnmanagedApplication app, String host) throws Exception {
    Resource resource = Resource.newInstance(256, 1);
    app.client().addContainerRequest(new ContainerRequest(resource, new String[] {host}, null,
        Priority.newInstance(1), false));
    List<Container> granted = new ArrayList<>();
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (granted.isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no container on " + host);
      }
      granted.addAll(app.client().allocate(0.1f).getAllocatedContainers());
      Thread.sleep(100);
    }
    return granted.get(0);
  }

  /**
   * The counters as JMX shows them. metrics2 refreshes a source's JMX view from its last periodic
   * sample at most once per period (10 s by default), so this waits for the values to arrive.
   */
  private static void assertJmxCounts() throws Exception {
    MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
    Set<ObjectName> names = jmx.queryNames(new ObjectName("Hadoop:*,name=ElasticamShuffle-nm" + NODE), null);
    assertEquals(1, names.size(), "the service's metrics source in JMX: " + jmx.queryNames(
        new ObjectName("Hadoop:*"), null));
    ObjectName n = names.iterator().next();
    long bytes = 0;
    for (int m = 0; m < MAPS; m++) {
      for (int r = 0; r < REDUCES; r++) {
        bytes += blockSize(m, r);
      }
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline && attribute(jmx, n, "BlocksSent") < MAPS * REDUCES) {
      Thread.sleep(250);
    }
    assertEquals((long) MAPS * REDUCES, attribute(jmx, n, "BlocksSent"));
    assertEquals(bytes, attribute(jmx, n, "BytesSent"));
    assertTrue(attribute(jmx, n, "Responses200") >= 2, "registration and fetch");
    assertEquals(1L, attribute(jmx, n, "RegisteredApplications"));
    assertEquals(1L, attribute(jmx, n, "RegisteredExecutors"));
    assertEquals("epoll", jmx.getAttribute(n, "tag.Transport"),
        "the native epoll transport, its library loaded from the shaded jar under its relocated name");
  }

  private static long attribute(MBeanServer jmx, ObjectName n, String name) throws Exception {
    return ((Number) jmx.getAttribute(n, name)).longValue();
  }
}
