package org.elasticam.am.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.am.events.EventLog;
import org.elasticam.engine.job.DagPlan;
import org.elasticam.am.job.JobSpec;
import org.elasticam.am.job.BuiltInJobs;
import org.elasticam.am.loop.AmLoop;
import org.elasticam.executor.ExecutorArgs;
import org.elasticam.executor.ExecutorBackend;
import org.elasticam.executor.ExitCodes;
import org.elasticam.rpc.AppSecretAuth;
import org.elasticam.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.elasticam.engine.job.JobPlan;
import org.elasticam.engine.job.Outcome;
import org.elasticam.engine.job.DriverSettings;
import org.elasticam.engine.job.EnginePorts;
import org.elasticam.engine.job.JobEngine;
import org.elasticam.engine.job.JobPolicies;

/**
 * The driver and real executor backends over a real gRPC connection on loopback, with the
 * allocator faked: registration checks, authentication, tasks to their end, job outcomes, what
 * travels the wire. The engine's decisions alone (node events, preemption, speculation, restarts)
 * are tested on a manual clock in the engine module (JobEngineTest, NodeEventsAndSpeculationTest).
 */
@Timeout(60)
class DriverControlPlaneTest {

  private static final byte[] SECRET = "an application secret of 32 byte".getBytes(StandardCharsets.US_ASCII);

  @TempDir
  Path scratch;

  private final CompletableFuture<Outcome> outcome = new CompletableFuture<>();
  private final EventLog events = EventLog.discarding(Clock.system());
  private AmLoop loop;
  private Server server;
  private Driver driver;

  /** Executors 1 and 2 run in containers c1 and c2, whichever attempt asks. */
  private final TwoLaunchedExecutors allocator = new TwoLaunchedExecutors();
  private final List<String> killed = allocator.killed;

  private int startDriver(String... job) throws Exception {
    return startDriver(new DagPlan(BuiltInJobs.sleepStages(JobSpec.parse(job))));
  }

  private int startDriver(org.elasticam.engine.job.JobPlan plan) throws Exception {
    return startDriver(plan, Duration.ofSeconds(30));
  }

  private int startDriver(org.elasticam.engine.job.JobPlan plan, Duration registrationTimeout) throws Exception {
    loop = new AmLoop(outcome::completeExceptionally);
    driver = new Driver(new JobEngine(new DriverSettings("app_1", 2, 1, 2, Duration.ZERO, Duration.ofMillis(200),
        Duration.ofSeconds(10), registrationTimeout, 0.0, Duration.ZERO, Duration.ofSeconds(1),
        DriverSettings.ExcludeOnFailure.OFF), plan, new TaskScheduler(2, Duration.ZERO, h -> null),
        new EnginePorts(loop, Clock.system(), allocator, events), JobPolicies.STATIC, outcome::complete));
    NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0));
    if (serverTls != null) {
      builder.sslContext(serverTls);
    }
    server = builder
        .addService(ServerInterceptors.intercept(new DriverService(loop, driver),
            AppSecretAuth.interceptor(SECRET, Clock.system(), why -> { })))
        .build().start();
    loop.execute(driver.engine()::start);
    return server.getPort();
  }

  /** The driver's control plane serves TLS with this context; null: plaintext. */
  private io.grpc.netty.shaded.io.netty.handler.ssl.SslContext serverTls;

  private CompletableFuture<Integer> executor(int port, int id, String container, byte[] secret) {
    return executor(port, id, container, secret, null);
  }

  private CompletableFuture<Integer> executor(int port, int id, String container, byte[] secret,
      io.grpc.netty.shaded.io.netty.handler.ssl.SslContext clientTls) {
    ExecutorArgs args = ExecutorArgs.parse(new String[] {"--driver", "127.0.0.1:" + port, "--executor-id",
        String.valueOf(id), "--app-id", "app_1", "--cores", "2", "--heartbeat-ms", "200",
        "--heartbeat-timeout-ms", "10000"});
    return CompletableFuture.supplyAsync(() -> {
      try {
        ExecutorBackend backend =
            new ExecutorBackend(args, "localhost", container, secret, Clock.system(), scratch.resolve("e" + id), null);
        return (clientTls == null ? backend : backend.withControlPlaneTls(clientTls)).run();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
  }

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
  void twoExecutorsRunAJobToSuccessAndAreToldToStop() throws Exception {
    int port = startDriver("sleep", "--stages", "2", "--tasks", "6", "--task-ms", "20");
    List<CompletableFuture<Integer>> execs = new ArrayList<>();
    execs.add(executor(port, 1, "c1", SECRET));
    execs.add(executor(port, 2, "c2", SECRET));
    Outcome o = outcome.get(30, TimeUnit.SECONDS);
    assertEquals(Outcome.Status.SUCCEEDED, o.status(), o.diagnostics());
    server.shutdownNow();
    for (CompletableFuture<Integer> e : execs) {
      int code = e.get(20, TimeUnit.SECONDS);
      assertTrue(code == ExitCodes.OK || code == ExitCodes.DRIVER_LOST, "exit " + code);
    }
  }

  @Test
  void renewedTokensReachLiveExecutorsAndOnesThatRegisterLater() throws Exception {
    int port = startDriver("sleep", "--stages", "1", "--tasks", "4", "--task-ms", "1500");
    CompletableFuture<Integer> e1 = executor(port, 1, "c1", SECRET);
    waitFor(() -> driver.engine().registeredExecutors() == 1, "executor 1 registers");
    org.apache.hadoop.io.Text service = new org.apache.hadoop.io.Text("renewal-test-fs:8020");
    loop.call(() -> {
      driver.engine().updateCredentials(tokenStorage(service, "renewed").toByteArray());
      return null;
    });
    waitFor(() -> "renewed".equals(processToken(service)), "executor 1 takes the renewed token");

    // Executors here share this JVM's user: overwrite the token, and a late registrant must bring
    // the renewed one back.
    org.apache.hadoop.security.UserGroupInformation.getCurrentUser().addToken(service, token(service, "stale"));
    CompletableFuture<Integer> e2 = executor(port, 2, "c2", SECRET);
    waitFor(() -> "renewed".equals(processToken(service)), "executor 2 gets the renewed token when it registers");
    assertEquals(Outcome.Status.SUCCEEDED, outcome.get(30, TimeUnit.SECONDS).status());
    server.shutdownNow();
    e1.get(20, TimeUnit.SECONDS);
    e2.get(20, TimeUnit.SECONDS);
  }

  private static org.apache.hadoop.security.token.Token<?> token(org.apache.hadoop.io.Text service, String password) {
    return new org.apache.hadoop.security.token.Token<>(new byte[] {1},
        password.getBytes(java.nio.charset.StandardCharsets.UTF_8), new org.apache.hadoop.io.Text("RENEWAL_TEST"),
        service);
  }

  private static com.google.protobuf.ByteString tokenStorage(org.apache.hadoop.io.Text service, String password)
      throws java.io.IOException {
    org.apache.hadoop.security.Credentials c = new org.apache.hadoop.security.Credentials();
    c.addToken(service, token(service, password));
    org.apache.hadoop.io.DataOutputBuffer out = new org.apache.hadoop.io.DataOutputBuffer();
    c.writeTokenStorageToStream(out);
    return com.google.protobuf.ByteString.copyFrom(out.getData(), 0, out.getLength());
  }

  private static String processToken(org.apache.hadoop.io.Text service) {
    try {
      var t = org.apache.hadoop.security.UserGroupInformation.getCurrentUser().getCredentials().getToken(service);
      return t == null ? null : new String(t.getPassword(), java.nio.charset.StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void overTlsFromHadoopsSslFilesAnExecutorThatChecksTheCertificateRunsTheJobAndAPlaintextOneGetsNowhere()
      throws Exception {
    ClusterTlsFiles tls = ClusterTlsFiles.create(scratch, Path.of("target", "test-classes"));
    serverTls = org.elasticam.rpc.ControlPlaneTls.server(org.elasticam.rpc.HadoopTls.serverKeys(tls.conf()));
    int port = startDriver("sleep", "--stages", "1", "--tasks", "4", "--task-ms", "50");
    assertEquals(ExitCodes.DRIVER_LOST, executor(port, 2, "c2", SECRET).get(20, TimeUnit.SECONDS),
        "a plaintext executor cannot speak to a TLS control plane");
    assertEquals(0, driver.engine().registeredExecutors());
    CompletableFuture<Integer> e1 = executor(port, 1, "c1", SECRET,
        org.elasticam.rpc.ControlPlaneTls.client(org.elasticam.rpc.HadoopTls.clientTrust(tls.conf())));
    Outcome o = outcome.get(30, TimeUnit.SECONDS);
    assertEquals(Outcome.Status.SUCCEEDED, o.status(), o.diagnostics());
    server.shutdownNow();
    e1.get(20, TimeUnit.SECONDS);
  }

  @Test
  void aWrongSecretIsRefused() throws Exception {
    int port = startDriver("sleep", "--stages", "1", "--tasks", "1", "--task-ms", "1");
    byte[] wrong = SECRET.clone();
    wrong[3] ^= 0x55;
    assertEquals(ExitCodes.REFUSED, executor(port, 1, "c1", wrong).get(20, TimeUnit.SECONDS));
  }

  @Test
  void anExecutorWeDidNotLaunchIsRefused() throws Exception {
    int port = startDriver("sleep", "--stages", "1", "--tasks", "1", "--task-ms", "1");
    assertEquals(ExitCodes.REFUSED, executor(port, 7, "c7", SECRET).get(20, TimeUnit.SECONDS));
    assertEquals(ExitCodes.REFUSED, executor(port, 1, "c-other", SECRET).get(20, TimeUnit.SECONDS));
  }

  @Test
  void aTaskThatAlwaysFailsFailsTheJobWithItsError() throws Exception {
    int port = startDriver("sleep", "--stages", "1", "--tasks", "1", "--task-ms", "1", "--fail-rate", "1");
    CompletableFuture<Integer> e = executor(port, 1, "c1", SECRET);
    Outcome o = outcome.get(30, TimeUnit.SECONDS);
    assertEquals(Outcome.Status.FAILED, o.status());
    assertTrue(o.diagnostics().startsWith("Task 0 of stage 0 (sleep 0) failed 2 times"), o.diagnostics());
    assertTrue(o.diagnostics().contains("failed at random (failRate 1.0)"), o.diagnostics());
    server.shutdownNow();
    e.get(20, TimeUnit.SECONDS);
  }

  @Test
  void aVanishedExecutorIsLostAndItsContainerReleased() throws Exception {
    int port = startDriver("sleep", "--stages", "1", "--tasks", "2", "--task-ms", "60000");
    CompletableFuture<Integer> e1 = executor(port, 1, "c1", SECRET);
    // Wait until executor 1 runs both tasks, then cut the connection under it.
    waitFor(() -> driver.engine().tasksRunning() == 2, "executor 1 runs both tasks");
    server.shutdownNow();
    assertEquals(ExitCodes.DRIVER_LOST, e1.get(20, TimeUnit.SECONDS));
    for (int i = 0; i < 100 && killed.isEmpty(); i++) {
      Thread.sleep(50);
    }
    assertTrue(killed.get(0).startsWith("1: lost: stream failed"), killed.toString());
  }

  private void waitFor(java.util.concurrent.Callable<Boolean> condition, String what) throws Exception {
    for (int i = 0; i < 400 && !loop.call(condition); i++) {
      Thread.sleep(25);
    }
    assertTrue(loop.call(condition), what);
  }
}
