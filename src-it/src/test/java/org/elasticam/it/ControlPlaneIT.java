package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.elasticam.rpc.AppSecretAuth;
import org.elasticam.rpc.proto.DriverGrpc;
import org.elasticam.rpc.proto.DriverMessage;
import org.elasticam.rpc.proto.ExecutorMessage;
import org.elasticam.rpc.proto.Heartbeat;
import org.elasticam.rpc.proto.Register;
import org.elasticam.time.Clock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.elasticam.report.ReportStructure;
import org.elasticam.shuffle.protocol.RequestSigner;
import org.junit.jupiter.api.Timeout;

/**
 * A running AM's doors — its control plane and its status endpoint — tried by a client of the
 * test's own: without the secret, with a wrong one, with the right one but malformed, oversized
 * or impostor messages, and with plain garbage — one at a time, and as a flood from eight threads
 * with connections held open and silent. Every attempt gets an error; the job still succeeds, and
 * the AM's log holds a line per interval about the refusals, not one per refusal.
 */
@Timeout(240)
class ControlPlaneIT {

  private static ItCluster it;

  @BeforeAll
  static void start() throws Exception {
    it = ItCluster.start("control-plane", s -> s);
  }

  @AfterAll
  static void stop() {
    if (it != null) {
      it.close();
    }
  }

  @Test
  void strangersAreRefusedAndTheJobStillSucceeds() throws Exception {
    ApplicationId id = runningJob(6000);
    ApplicationReport r = it.report(id);
    String host = r.getHost();
    int port = r.getRpcPort();
    byte[] secret = appSecret(id);
    byte[] wrong = secret.clone();
    wrong[0] ^= 1;

    assertEquals(Status.Code.UNAUTHENTICATED, session(host, port, null, register(1, "x")).getCode());
    assertEquals(Status.Code.UNAUTHENTICATED, session(host, port, wrong, register(1, "x")).getCode());
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, session(host, port, secret, register(1, "h".repeat(2 << 20))).getCode());
    assertEquals(Status.Code.INVALID_ARGUMENT, session(host, port, secret,
        ExecutorMessage.newBuilder().setHeartbeat(Heartbeat.newBuilder().setSentAtMs(1)).build()).getCode());
    assertEquals(Status.Code.INVALID_ARGUMENT, session(host, port, secret, ExecutorMessage.getDefaultInstance()).getCode());
    assertEquals(Status.Code.FAILED_PRECONDITION, session(host, port, secret, register(99, "evil")).getCode());
    assertEquals(Status.Code.FAILED_PRECONDITION, session(host, port, secret, register(1, "replay")).getCode(),
        "an executor id already registered cannot be taken over");
    assertEquals(Status.Code.UNAVAILABLE, garbage(host, port).getCode(), "garbage: the AM closed the connection");

    // The page's answers to what the ResourceManager's web proxy may send it, sent from the proxy's
    // address: from any other the page only redirects to the proxy (LivePageAccessIT).
    InetAddress proxy = it.proxyAddress();
    URI status = URI.create(r.getOriginalTrackingUrl());
    assertEquals(200, ItCluster.http(proxy, "GET", status.resolve("status")).status());
    assertEquals(405, ItCluster.http(proxy, "POST", status.resolve("status")).status());
    assertEquals(404, ItCluster.http(proxy, "GET", status.resolve("api/v1/nope")).status());
    assertEquals(400, ItCluster.http(proxy, "GET", status.resolve("..%2F..%2Fetc%2Fpasswd")).status());
    assertEquals(414, ItCluster.http(proxy, "GET", status.resolve("status?x=" + "a".repeat(4000))).status());
    // The live page and its API, straight from the proxy's address and through the proxy.
    String proxied = it.proxiedTrackingUrl(id);
    for (String page : List.of(ItCluster.http(proxy, "GET", status).body(), ItCluster.httpBody(proxied))) {
      List<Document> svgs = ReportStructure.svgs(page);
      assertEquals(2, svgs.size());
      assertTrue(ReportStructure.rects(svgs.get(1), "held") >= 1, "the executor timeline has the executor");
    }
    assertTrue(ItCluster.http(proxy, "GET", status.resolve("api/v1/executors")).body().startsWith("[{\"executor_id\""));
    assertTrue(ItCluster.httpBody(proxied + "api/v1/executors").startsWith("[{\"executor_id\""), proxied);

    ApplicationReport end = it.waitForEnd(id, Duration.ofSeconds(120));
    assertEquals(FinalApplicationStatus.SUCCEEDED, end.getFinalApplicationStatus(), end.getDiagnostics());
    secretsNeverLogged(id, secret);
  }

  @Test
  void aFloodOfStrangersNeitherStopsTheJobNorFillsTheLog() throws Exception {
    ApplicationId id = runningJob(15000);
    ApplicationReport r = it.report(id);
    String host = r.getHost();
    int port = r.getRpcPort();
    byte[] secret = appSecret(id);

    // Held open and silent for the whole flood, as a slow client would.
    List<Socket> idle = new java.util.ArrayList<>();
    long idleOpenedAt = System.nanoTime();
    for (int i = 0; i < 64; i++) {
      idle.add(new Socket(host, port));
    }
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
    java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();
    java.util.Map<String, Integer> wrong = new java.util.concurrent.ConcurrentHashMap<>();
    List<java.util.concurrent.Future<?>> work = new java.util.ArrayList<>();
    long t0 = System.nanoTime();
    for (int w = 0; w < 8; w++) {
      int worker = w;
      work.add(pool.submit(() -> {
        for (int i = 0; i < 40; i++) {
          // Each kind must be refused the way its door refuses it; anything else is counted as wrong.
          Status.Code expected = switch ((worker + i) % 4) {
            case 0 -> Status.Code.UNAUTHENTICATED;
            case 1 -> Status.Code.RESOURCE_EXHAUSTED;
            case 2 -> Status.Code.FAILED_PRECONDITION;
            default -> Status.Code.UNAVAILABLE;
          };
          Status s = switch ((worker + i) % 4) {
            case 0 -> session(host, port, null, register(1, "flood"));
            case 1 -> session(host, port, secret, register(1, "h".repeat(2 << 20)));
            case 2 -> session(host, port, secret, register(1000 + i, "impostor"));
            default -> garbage(host, port);
          };
          if (s.getCode() == expected) {
            refused.incrementAndGet();
          } else {
            wrong.merge(expected + " got " + s, 1, Integer::sum);
          }
        }
        return null;
      }));
    }
    // The status endpoint, asked while the flood threads are still at work.
    int askedMidFlood = 0;
    while (work.stream().anyMatch(f -> !f.isDone())) {
      int code = http(it.proxiedTrackingUrl(id) + "status", "GET");
      if (work.stream().anyMatch(f -> !f.isDone())) {
        assertEquals(200, code, "the status endpoint answers mid-flood");
        askedMidFlood++;
      }
    }
    for (java.util.concurrent.Future<?> f : work) {
      f.get(120, TimeUnit.SECONDS);
    }
    double floodSeconds = (System.nanoTime() - t0) / 1e9;
    pool.shutdownNow();
    assertTrue(askedMidFlood >= 1, "the status endpoint was asked while the flood went on");
    assertEquals(java.util.Map.of(), wrong, "every stranger refused the way its kind is");
    assertEquals(320, refused.get());
    // The silent connections: closed by the AM's 20 s handshake timeout, not before, not never.
    long firstClosedMs = -1;
    for (Socket s : idle) {
      // The job (two 15 s tasks) ends near 30 s and closes everything with the AM: well after 25 s.
      long closedAfterMs = closedAfterMs(s, idleOpenedAt, 25_000);
      firstClosedMs = firstClosedMs < 0 ? closedAfterMs : firstClosedMs;
      assertTrue(closedAfterMs >= 19_000 && closedAfterMs < 25_000,
          "a silent connection was closed by the AM " + closedAfterMs + " ms after it opened, not at 20 s");
      s.close();
    }

    ApplicationReport end = it.waitForEnd(id, Duration.ofSeconds(120));
    assertEquals(FinalApplicationStatus.SUCCEEDED, end.getFinalApplicationStatus(), end.getDiagnostics());
    long refusalLines = 0;
    for (Path f : ItCluster.paths(it.cluster.workDir(), p -> p.getFileName().toString().equals("am.log")
        && p.toString().contains(id.toString()))) {
      refusalLines += Files.readAllLines(f).stream().filter(l -> l.contains("control-plane call")).count();
    }
    // 240 refusals by the AM itself (the garbage never gets that far) in some seconds: a few lines.
    assertTrue(refusalLines >= 1 && refusalLines <= 2 + floodSeconds / 10 * 2, refusalLines + " lines about refusals");
    JsonNode appEnd = ItCluster.ofType(it.events(id), "app_end").get(0);
    double flood = Math.round(floodSeconds * 10) / 10.0;
    double closedS = Math.round(firstClosedMs / 100.0) / 10.0;
    Figures.record("ControlPlaneIT.aFloodOfStrangers", "default", String.format("%d refused in %.1f s; status"
        + " answered %d times mid-flood; silent connections closed %.1f s after opening; %d log lines; AM live heap"
        + " at the end %d MiB", refused.get(), flood, askedMidFlood, closedS, refusalLines,
        appEnd.path("am_heap_mb").asLong()), "refused", refused.get(), "flood_s", flood, "status_answers",
        askedMidFlood, "silent_closed_s", closedS, "log_lines", refusalLines, "am_heap_mb",
        appEnd.path("am_heap_mb").asLong());
  }

  /** A one-executor sleep job of two tasks of {@code taskMs}, submitted detached, once its executor registered. */
  private static ApplicationId runningJob(int taskMs) throws Exception {
    ItCluster.ClientRun run = it.client("submit", "--detach", "sleep", "--stages", "1", "--tasks", "2",
        "--task-ms", String.valueOf(taskMs), "--conf", "elasticam.executor.instances=1");
    assertEquals(0, run.exitCode(), run.out() + run.err());
    ApplicationId id = run.appId();
    it.awaitEvents(id, "executor_registered", 1, Duration.ofSeconds(60));
    return id;
  }

  /** Neither the app secret nor the shuffle secret derived from it, in any encoding we use, in any log. */
  private static void secretsNeverLogged(ApplicationId id, byte[] secret) throws IOException {
    List<String> forms = new java.util.ArrayList<>();
    for (byte[] s : List.of(secret, RequestSigner.deriveShuffleSecret(secret))) {
      forms.addAll(ItCluster.encodings(s));
    }
    int logs = 0;
    java.util.Set<String> rolling = new java.util.TreeSet<>();
    for (Path f : it.appLogFiles(id)) {
      String text = new String(Files.readAllBytes(f), java.nio.charset.StandardCharsets.ISO_8859_1);
      logs++;
      String name = f.getFileName().toString();
      if ((name.equals("am.log") || name.equals("executor.log")) && text.contains(" INFO ")) {
        rolling.add(name);
      }
      for (String form : forms) {
        assertFalse(text.contains(form), "a secret is in " + f);
      }
    }
    assertTrue(logs >= 2, "the AM's and the executor's logs were read: " + logs);
    assertEquals(java.util.Set.of("am.log", "executor.log"), rolling,
        "the AM and the executors also log to a rolling file in the container log dir");
  }

  private static ExecutorMessage register(int id, String host) {
    return ExecutorMessage.newBuilder().setRegister(Register.newBuilder().setExecutorId(id).setHost(host)
        .setContainerId("container_1_0001_01_000009").setCores(1)).build();
  }

  /** Opens a session, sends one message, and returns how the AM ended the stream. */
  private static Status session(String host, int port, byte[] secret, ExecutorMessage first) throws Exception {
    ManagedChannel ch = NettyChannelBuilder.forAddress(host, port).usePlaintext().build();
    try {
      DriverGrpc.DriverStub stub = DriverGrpc.newStub(ch);
      if (secret != null) {
        stub = stub.withCallCredentials(AppSecretAuth.credentials(secret, Clock.system()));
      }
      CompletableFuture<Status> done = new CompletableFuture<>();
      StreamObserver<ExecutorMessage> up = stub.session(new StreamObserver<DriverMessage>() {
        @Override
        public void onNext(DriverMessage m) {
          done.complete(Status.OK.withDescription("answered: " + m.getBodyCase()));
        }

        @Override
        public void onError(Throwable t) {
          done.complete(Status.fromThrowable(t));
        }

        @Override
        public void onCompleted() {
          done.complete(Status.OK);
        }
      });
      up.onNext(first);
      return done.get(30, TimeUnit.SECONDS);
    } finally {
      ch.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /**
   * Bytes that are no HTTP/2 at all: the AM drops the connection and carries on. UNAVAILABLE when
   * it closed the connection within 10 s, whatever it wrote first; DEADLINE_EXCEEDED when it held it.
   */
  private static Status garbage(String host, int port) throws IOException {
    try (Socket s = new Socket(host, port)) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n\u0000\u0001\u0002garbage".getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = s.getInputStream();
      while (in.read() >= 0) {
        // drain until the server closes
      }
      return Status.UNAVAILABLE.withDescription("closed by the AM");
    } catch (java.net.SocketTimeoutException e) {
      return Status.DEADLINE_EXCEEDED.withDescription("the AM held a connection of garbage open for 10 s");
    }
  }

  /** When the AM closed a connection the test never wrote to, in ms after {@code openedAt} (nanoTime). */
  private static long closedAfterMs(Socket s, long openedAt, long waitMs) throws IOException {
    long left = waitMs - (System.nanoTime() - openedAt) / 1_000_000;
    if (left <= 0) {
      return (System.nanoTime() - openedAt) / 1_000_000;
    }
    s.setSoTimeout((int) left);
    try {
      while (s.getInputStream().read() >= 0) {
        // the server may write a frame before it closes
      }
    } catch (java.net.SocketTimeoutException e) {
      return Long.MAX_VALUE;
    } catch (java.net.SocketException e) {
      // reset by the AM: closed all the same
    }
    return (System.nanoTime() - openedAt) / 1_000_000;
  }

  private static int http(String url, String method) throws IOException {
    HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
    c.setRequestMethod(method);
    c.setConnectTimeout(5000);
    c.setReadTimeout(5000);
    try {
      return c.getResponseCode();
    } finally {
      c.disconnect();
    }
  }

  /** The secret as the AM container holds it: in the credentials file its NodeManager wrote. */
  private static byte[] appSecret(ApplicationId id) throws IOException {
    Path tokens = ItCluster.paths(it.cluster.workDir(), p -> p.getFileName().toString().equals("container_tokens")
        && p.toString().contains(id.toString())).stream().findFirst()
        .orElseThrow(() -> new AssertionError("no container_tokens for " + id));
    Credentials c = Credentials.readTokenStorageFile(new org.apache.hadoop.fs.Path(tokens.toUri()), it.conf());
    return c.getSecretKey(new Text(AppSecretAuth.CREDENTIALS_KEY));
  }
}
