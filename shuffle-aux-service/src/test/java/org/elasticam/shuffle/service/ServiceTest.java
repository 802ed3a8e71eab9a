package org.elasticam.shuffle.service;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.apache.hadoop.service.ServiceStateException;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.elasticam.shuffle.client.ClientSettings;
import org.elasticam.shuffle.client.FetchException;
import org.elasticam.shuffle.client.FetchedBlocks;
import org.elasticam.shuffle.client.ServiceAddress;
import org.elasticam.shuffle.client.ShuffleClient;
import org.elasticam.shuffle.layout.ShuffleLayout;
import org.elasticam.shuffle.protocol.FetchRequest;
import org.elasticam.shuffle.protocol.MapIdSet;
import org.elasticam.shuffle.protocol.PortMetadata;
import org.elasticam.shuffle.protocol.ReduceRange;
import org.elasticam.shuffle.protocol.SecretEnvelope;
import org.elasticam.testkit.shuffle.ShuffleFixtures;
import org.elasticam.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The AuxiliaryService as the NodeManager drives it: lifecycle, callbacks, recovery, TLS. */
class ServiceTest {

  private static final ApplicationId APP = ApplicationId.newInstance(1700000000000L, 1);
  private static final String USER = "alice";

  @TempDir
  Path tmp;

  private Path nmLocal;
  private Path recovery;
  private Path appDir;
  private final byte[] secret = ShuffleFixtures.newSecret();
  private ElasticamShuffleService service;

  @BeforeEach
  void setUp() throws Exception {
    nmLocal = tmp.resolve("local");
    recovery = tmp.resolve("recovery/nm-aux-services/elasticam_shuffle");
    appDir = ShuffleFixtures.appCacheDir(nmLocal, USER, APP.toString());
    ShuffleFixtures.writeMaps(List.of(appDir), 0, 2, 2, (m, r) -> 1000 + m);
  }

  @AfterEach
  void tearDown() {
    if (service != null) {
      service.stop();
    }
  }

  private YarnConfiguration conf() {
    YarnConfiguration c = new YarnConfiguration();
    c.set("elasticam.shuffle.port", "0");
    c.set("elasticam.shuffle.host", "127.0.0.1");
    c.set("elasticam.shuffle.metricsName", "ServiceTest");
    c.set(YarnConfiguration.NM_LOCAL_DIRS, nmLocal.toString());
    return c;
  }

  private ElasticamShuffleService start(YarnConfiguration conf, boolean withRecovery) {
    ElasticamShuffleService s = new ElasticamShuffleService();
    if (withRecovery) {
      s.setRecoveryPath(new org.apache.hadoop.fs.Path(recovery.toUri()));
    }
    s.init(conf);
    s.start();
    return s;
  }

  private void restart() {
    service.stop();
    service = start(conf(), true);
  }

  private ShuffleClient client() {
    return new ShuffleClient(APP.toString(), secret, ClientSettings.defaults().withRetries(0, Duration.ZERO),
        Clock.system());
  }

  private ServiceAddress address() {
    return ServiceAddress.plain("127.0.0.1", PortMetadata.decode(service.getMetaData()).port());
  }

  private int fetchStatus() throws Exception {
    try (ShuffleClient c = client()) {
      FetchRequest r = new FetchRequest(APP.toString(), "e1", 0, new ReduceRange(0, 1), MapIdSet.of(0, 1));
      try (FetchedBlocks got = c.fetch(address(), r).get(10, TimeUnit.SECONDS)) {
        assertArrayEquals(ShuffleFixtures.blockBytes(0, 1, 1, 1001), got.blocks().get(3).data());
        return 200;
      } catch (java.util.concurrent.ExecutionException e) {
        return ((FetchException) e.getCause()).status();
      }
    }
  }

  private void initApp(boolean persist) {
    service.initializeApplication(new ApplicationInitializationContext(USER, APP,
        new SecretEnvelope(secret, persist).encode()));
  }

  private void registerExecutor() throws Exception {
    try (ShuffleClient c = client()) {
      c.register(address(), "e1", List.of(appDir));
    }
  }

  /** How many of this process's descriptors are open on a shuffle data file of the application. */
  private long openDataFiles() throws Exception {
    return openUnderAppDir(target -> target.toString().endsWith(".data")).count();
  }

  /** The directories at or below the application's dir this process holds descriptors on. */
  private java.util.Set<Path> openShuffleDirs() throws Exception {
    return openUnderAppDir(Files::isDirectory).collect(java.util.stream.Collectors.toSet());
  }

  private java.util.stream.Stream<Path> openUnderAppDir(java.util.function.Predicate<Path> which) throws Exception {
    Path dir = appDir.toRealPath();
    List<Path> out = new java.util.ArrayList<>();
    try (java.util.stream.Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      fds.forEach(fd -> {
        try {
          Path target = Files.readSymbolicLink(fd);
          if (target.startsWith(dir) && which.test(target)) {
            out.add(target);
          }
        } catch (java.io.IOException e) {
          // closed meanwhile
        }
      });
    }
    return out.stream();
  }

  @Test
  void dataFilesAndTheirDirStayOpenBetweenFetchesAndCloseWhenTheApplicationStops() throws Exception {
    service = start(conf(), false);
    initApp(false);
    registerExecutor();
    assertEquals(200, fetchStatus());
    assertEquals(200, fetchStatus());
    assertEquals(2, openDataFiles(), "both maps' data files are kept open, once each");
    Path real = appDir.toRealPath();
    List<Path> registered = List.of(real);
    assertEquals(java.util.Set.of(real, real.resolve(ShuffleLayout.ROOT), ShuffleLayout.shuffleDir(real, 0),
        ShuffleLayout.dataFile(registered, 0, 0).getParent(), ShuffleLayout.dataFile(registered, 0, 1).getParent()),
        openShuffleDirs(), "the directories on the way to both maps' files are kept open");
    service.stopApplication(new ApplicationTerminationContext(APP));
    // A file a response still uses closes when the server releases it, on its event loop, which may
    // be a moment after the client read the last byte.
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (openDataFiles() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertEquals(0, openDataFiles(), "closed when the application stops");
    assertEquals(java.util.Set.of(), openShuffleDirs(), "and so are the directories");
    assertEquals(401, fetchStatus());
  }

  @Test
  void recoveryKeepsWhatWasRegisteredAndWhatWasStopped() throws Exception {
    service = start(conf(), true);
    initApp(true);
    registerExecutor();
    assertEquals(200, fetchStatus());
    restart();
    assertEquals(200, fetchStatus(), "served after a restart with nothing registered again");
    service.stopApplication(new ApplicationTerminationContext(APP));
    assertEquals(401, fetchStatus());
    restart();
    assertEquals(401, fetchStatus(), "the stop was persisted");
    assertTrue(Files.exists(appDir.resolve("elasticam-shuffle")), "files are left to YARN");
  }

  @Test
  void anApplicationThatAskedNotToBePersistedIsForgottenOnRestart() throws Exception {
    service = start(conf(), true);
    initApp(false);
    registerExecutor();
    assertEquals(200, fetchStatus());
    restart();
    assertEquals(401, fetchStatus());
  }

  @Test
  void aStoreOfANewerMajorSchemaRefusesToStart() throws Exception {
    Files.createDirectories(recovery);
    ByteBuffer h = ByteBuffer.allocate(12).putInt(0x4541534A).putShort((short) 2).putShort((short) 0);
    CRC32C c = new CRC32C();
    c.update(h.array(), 0, 8);
    h.putInt((int) c.getValue());
    Files.write(recovery.resolve("state.journal"), h.array());
    ElasticamShuffleService s = new ElasticamShuffleService();
    s.setRecoveryPath(new org.apache.hadoop.fs.Path(recovery.toUri()));
    ServiceStateException e = assertThrows(ServiceStateException.class, () -> s.init(conf()));
    assertTrue(e.getCause().getMessage().contains("schema version 2.0"), e.getCause().getMessage());
  }

  @Test
  void aCorruptStoreIsMovedAsideAndTheServiceStartsEmpty() throws Exception {
    service = start(conf(), true);
    initApp(true);
    registerExecutor();
    service.stop();
    Path journal = recovery.resolve("state.journal");
    byte[] b = Files.readAllBytes(journal);
    b[20] ^= 0x55;
    Files.write(journal, b);
    service = start(conf(), true);
    assertEquals(401, fetchStatus(), "the registrations were lost with the corrupt store");
    try (var files = Files.list(recovery)) {
      assertTrue(files.anyMatch(p -> p.getFileName().toString().startsWith("state.journal.corrupt-")));
    }
    assertEquals(1, org.elasticam.shuffle.service.server.MetricValues.of(service.metrics())
        .get("RecoveryStoresCorrupt"));
    initApp(true);
    registerExecutor();
    assertEquals(200, fetchStatus(), "and new ones work");
  }

  @Test
  void applicationsThatEndedWhileTheNodeManagerWasDownAreSwept() throws Exception {
    service = start(conf(), true);
    initApp(true);
    registerExecutor();
    service.stop();
    // YARN removed the application's directories while the NodeManager was down.
    Files.walk(appDir).sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    service = start(conf(), true);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (service.registry().applicationCount() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertEquals(0, service.registry().applicationCount());
  }

  @Test
  void withoutRecoveryNothingIsWrittenAndGarbageServiceDataIsRefused() throws Exception {
    service = start(conf(), false);
    service.initializeApplication(new ApplicationInitializationContext(USER, APP, ByteBuffer.wrap("raw".getBytes())));
    assertEquals(0, service.registry().applicationCount());
    initApp(true);
    registerExecutor();
    assertEquals(200, fetchStatus());
    assertFalse(Files.exists(recovery));
    PortMetadata m = PortMetadata.decode(service.getMetaData());
    assertFalse(m.tls());
  }

  @Test
  void deleteOnStopRemovesTheApplicationsShuffleFiles() throws Exception {
    YarnConfiguration conf = conf();
    conf.setBoolean("elasticam.shuffle.deleteOnStop", true);
    service = start(conf, false);
    initApp(true);
    registerExecutor();
    service.stopApplication(new ApplicationTerminationContext(APP));
    Path root = appDir.resolve(ShuffleLayout.ROOT);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (Files.exists(root) && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertFalse(Files.exists(root));
  }

  @Test
  void aBrokenKeyFailsInitNamingIt() {
    YarnConfiguration conf = conf();
    conf.set("elasticam.shuffle.maxConnections", "0");
    ElasticamShuffleService s = new ElasticamShuffleService();
    RuntimeException e = assertThrows(RuntimeException.class, () -> s.init(conf));
    assertTrue(e.getMessage().contains("elasticam.shuffle.maxConnections = '0': must be >= 1"), e.getMessage());
  }

  @Test
  void tlsWithHadoopsSslConfigurationAndASelfSignedCertificate() throws Exception {
    SelfSigned cert = SelfSigned.create(tmp);
    YarnConfiguration conf = conf();
    conf.setBoolean("elasticam.shuffle.ssl.enabled", true);
    conf.set("hadoop.ssl.server.conf", "no-such-ssl-server.xml");
    conf.set("ssl.server.keystore.location", cert.keystore.toString());
    conf.set("ssl.server.keystore.type", "pkcs12");
    conf.set("ssl.server.keystore.password", SelfSigned.PASSWORD);
    conf.set("ssl.server.keystore.keypassword", SelfSigned.PASSWORD);
    service = start(conf, false);
    PortMetadata m = PortMetadata.decode(service.getMetaData());
    assertTrue(m.tls());
    initApp(true);
    ServiceAddress a = new ServiceAddress("127.0.0.1", m.port(), true);
    try (ShuffleClient c = new ShuffleClient(APP.toString(), secret,
        ClientSettings.defaults().withRetries(0, Duration.ZERO).withSsl(cert.client()), Clock.system())) {
      c.register(a, "e1", List.of(appDir));
      FetchRequest r = new FetchRequest(APP.toString(), "e1", 0, new ReduceRange(0, 1), MapIdSet.of(0, 1));
      try (FetchedBlocks got = c.fetch(a, r).get(10, TimeUnit.SECONDS)) {
        assertEquals(4, got.blocks().size());
        for (var blk : got.blocks()) {
          assertArrayEquals(ShuffleFixtures.blockBytes(0, blk.mapId(), blk.reduceId(), 1000 + blk.mapId()), blk.data());
        }
      }
    }
    try (java.net.Socket plain = new java.net.Socket("127.0.0.1", m.port())) {
      plain.setSoTimeout(10_000);
      plain.getOutputStream().write("GET /v1/fetch HTTP/1.1\r\n\r\n".getBytes());
      byte[] got = plain.getInputStream().readAllBytes();
      assertFalse(new String(got, java.nio.charset.StandardCharsets.ISO_8859_1).contains("HTTP/1.1"),
          "a plaintext client gets no HTTP answer, only the close");
    }
  }
}
