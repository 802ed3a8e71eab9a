package org.elasticam.am.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.elasticam.am.events.EventLog;
import org.elasticam.am.job.BuiltInJobs;
import org.elasticam.am.job.JobSpec;
import org.elasticam.am.loop.AmLoop;
import org.elasticam.engine.job.DagPlan;
import org.elasticam.engine.job.DriverSettings;
import org.elasticam.engine.job.EnginePorts;
import org.elasticam.engine.job.JobEngine;
import org.elasticam.engine.job.JobPolicies;
import org.elasticam.engine.job.Outcome;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.executor.ExecutorArgs;
import org.elasticam.executor.ExecutorBackend;
import org.elasticam.rpc.AppSecretAuth;
import org.elasticam.rpc.proto.ExecutorMessage;
import org.elasticam.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The AM's own session with its control plane, over a real gRPC connection on loopback: answered
 * before and after the driver is attached, never seen by the driver, and a failure said as one.
 */
@Timeout(60)
class ControlPlaneWarmupTest {

  private static final byte[] SECRET = "an application secret of 32 byte".getBytes(StandardCharsets.US_ASCII);

  @TempDir
  Path scratch;

  private final CompletableFuture<Outcome> outcome = new CompletableFuture<>();
  /** Every message the driver's side was handed, by the session handler under test. */
  private final List<ExecutorMessage> handed = new CopyOnWriteArrayList<>();
  private AmLoop loop;
  private Server server;
  private DriverService service;

  /** The control plane serves TLS with this context; null: plaintext. */
  private io.grpc.netty.shaded.io.netty.handler.ssl.SslContext serverTls;

  private int serve(DriverService.SessionHandler handler) throws Exception {
    loop = new AmLoop(outcome::completeExceptionally);
    DriverService.SessionHandler recording = new DriverService.SessionHandler() {
      @Override
      public void onMessage(ExecutorSession session, ExecutorMessage message) {
        handed.add(message);
        handler.onMessage(session, message);
      }

      @Override
      public void onClosed(ExecutorSession session, String why) {
        handler.onClosed(session, why);
      }
    };
    service = new DriverService(loop, recording);
    NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0));
    if (serverTls != null) {
      builder.sslContext(serverTls);
    }
    server = builder
        .addService(ServerInterceptors.intercept(service, AppSecretAuth.interceptor(SECRET, Clock.system(), why -> { })))
        .build().start();
    return server.getPort();
  }

  private Driver sleepJobDriver() {
    Driver driver = new Driver(new JobEngine(new DriverSettings("app_1", 1, 1, 1, Duration.ZERO, Duration.ofMillis(200),
        Duration.ofSeconds(10), Duration.ofSeconds(30), 0.0, Duration.ZERO, Duration.ofSeconds(1),
        DriverSettings.ExcludeOnFailure.OFF), new DagPlan(BuiltInJobs.sleepStages(JobSpec.parse("sleep", "--stages", "1",
        "--tasks", "2", "--task-ms", "10"))), new TaskScheduler(1, Duration.ZERO, h -> null),
        new EnginePorts(loop, Clock.system(), new TwoLaunchedExecutors(), EventLog.discarding(Clock.system())),
        JobPolicies.STATIC, outcome::complete));
    loop.execute(driver.engine()::start);
    return driver;
  }

  /** What the AM's holder does until the driver is attached. */
  private static final DriverService.SessionHandler NOT_ATTACHED = new DriverService.SessionHandler() {
    @Override
    public void onMessage(ExecutorSession session, ExecutorMessage message) {
      session.refuse(DriverService.NOT_RUNNING);
    }

    @Override
    public void onClosed(ExecutorSession session, String why) {}
  };

  @AfterEach
  void stop() throws Exception {
    if (server != null) {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    if (loop != null) {
      loop.close();
    }
  }

  @Test
  void theDriverRefusesTheSessionAndAnExecutorRegistersAfterIt() throws Exception {
    Driver[] driver = new Driver[1];
    int port = serve(new DriverService.SessionHandler() {
      @Override
      public void onMessage(ExecutorSession session, ExecutorMessage message) {
        driver[0].onMessage(session, message);
      }

      @Override
      public void onClosed(ExecutorSession session, String why) {
        driver[0].onClosed(session, why);
      }
    });
    driver[0] = sleepJobDriver();

    ControlPlaneWarmup.Answer a = ControlPlaneWarmup.start("127.0.0.1", port, SECRET, null, Clock.system())
        .get(30, TimeUnit.SECONDS);

    assertTrue(a.answered(), a.detail());
    assertTrue(a.detail().startsWith("INVALID_ARGUMENT"), a.detail());
    assertEquals(List.of(ExecutorMessage.getDefaultInstance()), handed);
    assertEquals(0, service.openSessions());
    assertEquals(0, loop.call(() -> driver[0].engine().registeredExecutors()));
    // The job's one executor registers and runs it as if the AM's own session had not been.
    ExecutorArgs args = ExecutorArgs.parse(new String[] {"--driver", "127.0.0.1:" + port, "--executor-id", "1",
        "--app-id", "app_1", "--cores", "1", "--heartbeat-ms", "200", "--heartbeat-timeout-ms", "10000"});
    CompletableFuture.runAsync(() -> {
      try {
        new ExecutorBackend(args, "localhost", "c1", SECRET, Clock.system(), scratch.resolve("e1"), null).run();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    Outcome o = outcome.get(30, TimeUnit.SECONDS);
    assertEquals(Outcome.Status.SUCCEEDED, o.status(), o.diagnostics());
  }

  @Test
  void beforeTheDriverIsAttachedTheSessionIsRefusedAsNotRunning() throws Exception {
    int port = serve(NOT_ATTACHED);

    ControlPlaneWarmup.Answer a = ControlPlaneWarmup.start("127.0.0.1", port, SECRET, null, Clock.system())
        .get(30, TimeUnit.SECONDS);

    assertTrue(a.answered(), a.detail());
    assertEquals("UNAVAILABLE: the driver is not running", a.detail());
    assertEquals(0, service.openSessions());
  }

  @Test
  void overTlsTheSessionChecksTheCertificateAsAnExecutorDoes() throws Exception {
    ClusterTlsFiles tls = ClusterTlsFiles.create(scratch, Path.of("target", "test-classes"));
    serverTls = org.elasticam.rpc.ControlPlaneTls.server(org.elasticam.rpc.HadoopTls.serverKeys(tls.conf()));
    int port = serve(NOT_ATTACHED);

    ControlPlaneWarmup.Answer checked = ControlPlaneWarmup.start("127.0.0.1", port, SECRET,
        org.elasticam.rpc.ControlPlaneTls.client(org.elasticam.rpc.HadoopTls.clientTrust(tls.conf())), Clock.system())
        .get(30, TimeUnit.SECONDS);
    ControlPlaneWarmup.Answer plain = ControlPlaneWarmup.start("127.0.0.1", port, SECRET, null, Clock.system())
        .get(30, TimeUnit.SECONDS);

    assertTrue(checked.answered(), checked.detail());
    assertFalse(plain.answered(), plain.detail());
    assertEquals(1, handed.size());
  }

  @Test
  void aControlPlaneThatRefusesTheSecretIsNotAnAnswer() throws Exception {
    int port = serve(new DriverService.SessionHandler() {
      @Override
      public void onMessage(ExecutorSession session, ExecutorMessage message) {}

      @Override
      public void onClosed(ExecutorSession session, String why) {}
    });
    byte[] other = "another application's secret 32b".getBytes(StandardCharsets.US_ASCII);

    ControlPlaneWarmup.Answer a = ControlPlaneWarmup.start("127.0.0.1", port, other, null, Clock.system())
        .get(30, TimeUnit.SECONDS);

    assertFalse(a.answered());
    assertEquals("UNAUTHENTICATED: wrong application secret", a.detail());
    assertTrue(handed.isEmpty());
  }

  @Test
  void nobodyListeningIsNotAnAnswer() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }

    ControlPlaneWarmup.Answer a = ControlPlaneWarmup.start("127.0.0.1", port, SECRET, null, Clock.system())
        .get(30, TimeUnit.SECONDS);

    assertFalse(a.answered());
    assertTrue(a.detail().startsWith("UNAVAILABLE") && a.detail().contains("Connection refused"), a.detail());
  }
}
