package org.elasticam.shuffle.service;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.elasticam.conf.ShuffleKeys.OwnerCheck;
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
import org.elasticam.shuffle.service.server.OwnedFileOpener;
import org.elasticam.shuffle.service.server.OwnerCheckUnavailableException;
import org.elasticam.testkit.shuffle.ShuffleFixtures;
import org.elasticam.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the service picks its owner check, and that the user it checks for survives a restart. */
class SecureServiceTest {

  private static final ApplicationId APP = ApplicationId.newInstance(1700000000000L, 7);

  @TempDir
  Path tmp;

  private ElasticamShuffleService service;

  @AfterEach
  void tearDown() {
    if (service != null) {
      service.stop();
    }
  }

  @Test
  void theCheckFollowsSecurityThenNativeCodeThenProcFdElseRefuses() throws Exception {
    OwnedFileOpener proc = OwnedFileOpener.throughProcFd();
    assertFalse(OwnerChecks.choose(OwnerCheck.AUTO, false, false, () -> proc).checksOwner(), "insecure: no check");
    assertTrue(OwnerChecks.choose(OwnerCheck.AUTO, true, true, () -> proc).toString().contains("native fstat"));
    assertTrue(OwnerChecks.choose(OwnerCheck.ALWAYS, false, true, () -> proc).toString().contains("native fstat"));
    assertEquals(proc, OwnerChecks.choose(OwnerCheck.AUTO, true, false, () -> proc), "no libhadoop: /proc/self/fd");
    assertEquals(proc, OwnerChecks.choose(OwnerCheck.ALWAYS, false, false, () -> proc));
    OwnedFileOpener none = OwnerChecks.choose(OwnerCheck.AUTO, true, false, () -> {
      throw new IOException("no /proc here");
    });
    assertTrue(none.checksOwner());
    Path any = Files.writeString(tmp.resolve("any"), "x");
    OwnerCheckUnavailableException e = assertThrows(OwnerCheckUnavailableException.class,
        () -> none.open(any, "anyone"));
    assertTrue(e.getMessage().contains("no /proc here"), e.getMessage());
  }

  @Test
  void theApplicationsUserSurvivesARestartAndSoDoesTheCheck() throws Exception {
    String me = Files.getOwner(Files.createTempFile(tmp, "me", "")).getName();
    Path nmLocal = tmp.resolve("local");
    Path appDir = ShuffleFixtures.appCacheDir(nmLocal, me, APP.toString());
    ShuffleFixtures.writeMaps(List.of(appDir), 0, 2, 2, (m, r) -> 1000 + m);
    byte[] secret = ShuffleFixtures.newSecret();
    service = start(nmLocal);
    service.initializeApplication(new ApplicationInitializationContext(me, APP,
        new SecretEnvelope(secret, true).encode()));
    try (ShuffleClient c = client(secret)) {
      c.register(address(), "e1", List.of(appDir));
    }
    assertEquals(200, fetchStatus(secret));

    service.stop();
    service = start(nmLocal);
    assertEquals(me, service.registry().app(APP.toString()).orElseThrow().user(), "the user came back from the journal");
    assertEquals(200, fetchStatus(secret), "served after the restart: the files are still the user's");

    Path data = ShuffleLayout.dataFile(List.of(appDir), 0, 1);
    try {
      Files.setAttribute(data, "unix:uid", 65534);
    } catch (IOException e) {
      Assumptions.assumeTrue(false, "giving a file to another user needs root (CAP_CHOWN): " + e);
    }
    assertEquals(403, fetchStatus(secret), "after the restart a file of another user is still refused");
  }

  private ElasticamShuffleService start(Path nmLocal) {
    YarnConfiguration c = new YarnConfiguration();
    c.set("elasticam.shuffle.port", "0");
    c.set("elasticam.shuffle.host", "127.0.0.1");
    c.set("elasticam.shuffle.metricsName", "SecureServiceTest");
    c.set("elasticam.shuffle.ownerCheck", "always");
    c.set(YarnConfiguration.NM_LOCAL_DIRS, nmLocal.toString());
    ElasticamShuffleService s = new ElasticamShuffleService();
    s.setRecoveryPath(new org.apache.hadoop.fs.Path(tmp.resolve("recovery").toUri()));
    s.init(c);
    s.start();
    return s;
  }

  private ShuffleClient client(byte[] secret) {
    return new ShuffleClient(APP.toString(), secret, ClientSettings.defaults().withRetries(0, Duration.ZERO),
        Clock.system());
  }

  private ServiceAddress address() {
    return ServiceAddress.plain("127.0.0.1", PortMetadata.decode(service.getMetaData()).port());
  }

  private int fetchStatus(byte[] secret) throws Exception {
    try (ShuffleClient c = client(secret)) {
      FetchRequest r = new FetchRequest(APP.toString(), "e1", 0, new ReduceRange(0, 1), MapIdSet.of(0, 1));
      try (FetchedBlocks got = c.fetch(address(), r).get(10, TimeUnit.SECONDS)) {
        assertArrayEquals(ShuffleFixtures.blockBytes(0, 1, 1, 1001), got.blocks().get(3).data());
        return 200;
      } catch (ExecutionException e) {
        return ((FetchException) e.getCause()).status();
      }
    }
  }
}
