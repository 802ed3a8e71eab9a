package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * ElasticAM on a secure cluster, all of it real and in this JVM: a KDC, a Kerberized HDFS, and a
 * ResourceManager and two NodeManagers that authenticate with Kerberos ({@link SecureHdfs}, {@code
 * EmbeddedCluster.Settings#withKerberos}); the AM and executors are container processes. Staging
 * and the event log live on the secure HDFS; the NameNode's delegation tokens expire unrenewed
 * after 15 s and for good after 40 s, so a minute-long job outlives its first tokens. The
 * ResourceManager has proxy-user privileges (YARN-2704): it obtains new HDFS tokens for an
 * application whose own reached their end and hands them to the NodeManagers, which localize
 * with them.
 *
 * <p>Containers run as this test's OS user, with the default container executor: a production
 * secure cluster runs them as the submitting user with the LinuxContainerExecutor, which needs a
 * setuid binary that no Maven artifact ships.
 *
 * <p>Runs in a JVM of its own (the {@code own-jvm} failsafe execution in this module's POM): Hadoop's
 * login state is global to a JVM.
 */
@Timeout(240)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SecureClusterIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TOKEN_RENEW_INTERVAL = Duration.ofSeconds(15);
  private static final Duration TOKEN_MAX_LIFETIME = Duration.ofSeconds(40);
  /**
   * The last test's stream: the AM is killed at +45 s; attempt 2 goes on after the last batch the
   * journal records, runs the delayed ones back to back, and with 65 has about ten more at the
   * stream's own pace, all on tokens it obtained itself.
   */
  private static final int RESTART_BATCHES = 65;
  private static final Path HOME = new Path("/user/" + SecureHdfs.USER);
  private static final Path EVENTS = new Path(HOME, "events");

  private static SecureHdfs secure;
  private static ItCluster it;

  @BeforeAll
  static void start() throws Exception {
    secure = SecureHdfs.start("secure-cluster-it", TOKEN_RENEW_INTERVAL, TOKEN_MAX_LIFETIME, SecureHdfs.SERVICE);
    it = ItCluster.start("secure", s -> s
        .withKerberos(secure.principal(SecureHdfs.SERVICE), secure.keytab().toPath(), secure.krb5Conf())
        .withConf(secure.siteKeys())
        // Without it a later AM attempt on another node cannot be localized once the submission's
        // tokens are past their maximum lifetime (see the last test).
        .withConf(YarnConfiguration.RM_PROXY_USER_PRIVILEGES_ENABLED, "true")
        // The last test needs its second AM attempt on the other node. YARN keeps a failed AM's
        // node out of the next attempt's way only when asked to (off by default), and only while
        // the nodes so excluded are fewer than the threshold times the cluster's nodes (0.2 by
        // default: none of two). 0.8 lets one of two be excluded.
        .withConf(YarnConfiguration.AM_SCHEDULING_NODE_BLACKLISTING_ENABLED, "true")
        .withConf(YarnConfiguration.AM_SCHEDULING_NODE_BLACKLISTING_DISABLE_THRESHOLD, "0.8"));
  }

  @AfterAll
  static void stop() {
    if (it != null) {
      it.close();
    }
    if (secure != null) {
      secure.close();
    }
  }

  @Test
  @Order(1)
  void aKeytabSubmissionCountsWordsOnHdfsWithTokensOnlyAndExecutorsNeverHoldTheAmRmToken() throws Exception {
    FileSystem fs = secure.fileSystem();
    Path in = new Path(HOME, "corpus");
    Path out = new Path(HOME, "counts");
    Corpus.write(fs, in, 3, 256 * 1024, 17);
    giveToUser(fs, in);
    long t0 = System.currentTimeMillis();
    ItCluster.ClientRun run = submit("--conf", "elasticam.executor.instances=2", "--conf",
        "elasticam.executor.memory=384m", "wordcount", "--input", in.toString(), "--output", out.toString(),
        "--reducers", "2");
    assertEquals(0, run.exitCode(), run.out() + run.err());
    ApplicationId id = run.appId();
    assertEquals(Corpus.count(fs, in), Corpus.output(fs, out, 2));
    List<JsonNode> events = events(id);
    assertEquals("SUCCEEDED", ItCluster.ofType(events, "app_end").get(0).path("final_status").asText(), events.toString());
    assertEquals("tokens_renewed", events.get(1).path("event").asText(),
        "the AM's keytab login obtained its own tokens at start, logged right after app_start");
    assertEquals(1, events.get(1).path("tokens").asInt(), "one token, for fs.defaultFS");

    Map<String, Credentials> tokens = containerTokens(id);
    String am = tokens.keySet().stream().filter(c -> c.endsWith("_000001")).findFirst().orElseThrow();
    assertTrue(kinds(tokens.get(am)).contains(AMRMTokenIdentifier.KIND_NAME.toString()), am + ": " + kinds(tokens.get(am)));
    Token<?> submitted = tokens.get(am).getToken(hdfsAlias(tokens.get(am)));
    // The AM obtains its tokens before it opens the event log (app_start can come seconds later on a
    // busy machine): its JVM's start is the mark, one clock with the NameNode's here.
    long amJvmStart = ItCluster.ofType(events, "am_registered").get(0).path("start").path("jvm_start_ts").asLong();
    assertTrue(amJvmStart > 0, "am_registered names its JVM's start");
    assertTrue(tokens.size() >= 3, "the AM and 2 executors: " + tokens.keySet());
    for (Map.Entry<String, Credentials> e : tokens.entrySet()) {
      if (e.getKey().equals(am)) {
        continue;
      }
      assertEquals(List.of(DelegationTokenIdentifier.HDFS_DELEGATION_KIND.toString()), kinds(e.getValue()),
          e.getKey() + " holds the HDFS token and nothing else: no AMRMToken");
      Token<?> executorToken = e.getValue().getToken(hdfsAlias(e.getValue()));
      DelegationTokenIdentifier own = (DelegationTokenIdentifier) executorToken.decodeIdentifier();
      assertNotEquals(((DelegationTokenIdentifier) submitted.decodeIdentifier()).getSequenceNumber(),
          own.getSequenceNumber(), "the AM's own token, not the client's");
      assertTrue(own.getIssueDate() >= amJvmStart, "issued to the AM at its start: " + own.getIssueDate()
          + " against its JVM's start " + amJvmStart);
    }
    System.out.printf("secure wordcount: %.1f s submit to end; containers %s; AM kinds %s; executors hold %s%n",
        (System.currentTimeMillis() - t0) / 1000.0, tokens.keySet(), kinds(tokens.get(am)),
        kinds(tokens.entrySet().stream().filter(e -> !e.getKey().equals(am)).findFirst().orElseThrow().getValue()));
  }

  @Test
  @Order(2)
  void withoutATicketOrAKeytabTheClientRefusesWithOneLine() throws Exception {
    UserGroupInformation bob = UserGroupInformation.createRemoteUser("bob");
    ItCluster.ClientRun run = bob.doAs((PrivilegedExceptionAction<ItCluster.ClientRun>) () ->
        it.client(it.conf(), "submit", "sleep", "--tasks", "1"));
    assertEquals(2, run.exitCode(), run.out() + run.err());
    assertEquals("elasticam: no Kerberos ticket for bob on this secure cluster: run kinit, or submit with"
        + " --principal P --keytab K\n", run.err());
    assertEquals("", run.out());
  }

  @Test
  @Order(3)
  void aStreamingJobOutlivesItsFirstTokensWithRenewedOnesAndShowsNoneOfThem() throws Exception {
    long t0 = System.currentTimeMillis();
    CompletableFuture<ItCluster.ClientRun> job = CompletableFuture.supplyAsync(() -> submit(
        "--conf", "elasticam.executor.instances=2", "--conf", "elasticam.executor.memory=256m",
        "streaming", "--batch-ms", "1000", "--batches", "60", "--rate", "const:20", "--work-per-record-us", "5000"));
    ApplicationId id = awaitApplication(job);
    awaitEvents(id, "tokens_renewed", 2);
    // Every page of the live UI, read after the AM pushed its renewed tokens to the executors, through
    // the ResourceManager's web proxy.
    String ui = it.proxiedTrackingUrl(id);
    StringBuilder pages = new StringBuilder();
    for (String page : List.of("", "status", "api/v1/executors", "api/v1/stages", "api/v1/timeline",
        "api/v1/decisions", "api/v1/conf")) {
      String body = throughTheProxy(ui + page, id);
      if (!page.isEmpty()) {
        JSON.readTree(body);
      }
      pages.append(body).append('\n');
    }
    ItCluster.ClientRun run = job.get();
    assertEquals(0, run.exitCode(), run.out() + run.err());
    List<JsonNode> events = events(id);
    assertEquals("SUCCEEDED", ItCluster.ofType(events, "app_end").get(0).path("final_status").asText());
    List<JsonNode> renewed = ItCluster.ofType(events, "tokens_renewed");
    assertTrue(renewed.size() >= 2, "renewed at start and at least once more: " + renewed.size());
    long firstExpired = t0 + TOKEN_MAX_LIFETIME.toMillis();
    long afterExpiry = ItCluster.ofType(events, "batch_completed").stream()
        .filter(e -> e.path("ts").asLong() > firstExpired + 5_000).count();
    assertTrue(afterExpiry >= 5, "the event log on HDFS took batches after the first tokens' end: " + afterExpiry);
    assertFalse(secure.fileSystem().exists(staging(id)), "the AM removed its staging dir with renewed tokens");
    List<String> took = executorLogLines(id, "new delegation token(s)");
    assertFalse(took.isEmpty(), "executors took pushed tokens");
    int shown = credentialsNeverShown(id, run.out() + run.err(), pages.toString());
    keytabOnlyInTheAmContainer(id);
    System.out.printf("secure streaming: executors: %s%n", took);
    double runS = (System.currentTimeMillis() - t0) / 1000.0;
    List<String> at = renewed.stream().map(e -> String.format("%.1f", (e.path("ts").asLong() - t0) / 1000.0)).toList();
    Figures.record("SecureClusterIT.aStreamingJobOutlivesItsFirstTokensWithRenewedOnesAndShowsNoneOfThem", "default",
        String.format("%.1f s run: tokens obtained at +%s s; %d batches after the first tokens' end (+%d s);"
            + " no password or secret in %d logs, pages and outputs", runS, String.join(", ", at), afterExpiry,
            TOKEN_MAX_LIFETIME.toSeconds(), shown),
        "run_s", runS, "tokens_obtained", renewed.size(), "batches_after_expiry", afterExpiry, "places_checked", shown);
  }

  @Test
  @Order(4)
  void anAmRestartedAfterTheFirstTokensExpiredObtainsFreshOnes() throws Exception {
    long t0 = System.currentTimeMillis();
    CompletableFuture<ItCluster.ClientRun> job = CompletableFuture.supplyAsync(() -> submit(
        "--conf", "elasticam.yarn.maxAppAttempts=2", "--conf", "elasticam.executor.instances=2",
        "--conf", "elasticam.executor.memory=256m", "--conf", "elasticam.executor.reregisterTimeout=60s",
        "streaming", "--batch-ms", "1000", "--batches", String.valueOf(RESTART_BATCHES), "--rate", "const:20",
        "--work-per-record-us", "5000"));
    ApplicationId id = awaitApplication(job);
    long pid = awaitEvent(id, "am_registered").path("pid").asLong();
    Thread.sleep(Math.max(0, t0 + TOKEN_MAX_LIFETIME.toMillis() + 5_000 - System.currentTimeMillis()));
    long killedAt = System.currentTimeMillis();
    assertTrue(ProcessHandle.of(pid).orElseThrow().destroyForcibly(), "kill -9 the AM");
    ItCluster.ClientRun run = job.get();
    ApplicationReport report = it.report(id);
    System.out.printf("secure AM restart: killed at +%.1f s; final %s, diagnostics: %s%n",
        (killedAt - t0) / 1000.0, report.getFinalApplicationStatus(), report.getDiagnostics());
    assertEquals(FinalApplicationStatus.SUCCEEDED, report.getFinalApplicationStatus(),
        run.out() + run.err() + report.getDiagnostics());
    // The ResourceManager keeps the node where the first AM died out of the second's way: attempt 2
    // was localized from HDFS afresh, after the submission's tokens had ended, with those the
    // ResourceManager obtained for the application as a proxy user and sent to the NodeManager.
    java.nio.file.Path first = amLog(id, 1);
    java.nio.file.Path second = amLog(id, 2);
    assertNotEquals(nodeDir(first), nodeDir(second), "attempt 2 ran on another node");
    List<String> obtained = Files.readAllLines(second).stream()
        .filter(l -> l.contains("TokenRenewer: Obtained") && l.contains("delegation token(s)")).toList();
    assertFalse(obtained.isEmpty(), "attempt 2 obtained fresh tokens from the keytab");
    System.out.printf("secure AM restart: attempt 1 on %s, attempt 2 on %s; first: %s%n", nodeDir(first),
        nodeDir(second), obtained.get(0));
    List<JsonNode> done = ItCluster.ofType(events(id), "batch_completed");
    long batches = done.stream().map(e -> e.path("batch").asLong()).distinct().count();
    long afterKill = done.stream().filter(e -> e.path("ts").asLong() > killedAt).count();
    assertTrue(afterKill >= 3, "attempt 2 ran batches and logged them on HDFS with its own tokens: " + afterKill);
    Figures.record("SecureClusterIT.anAmRestartedAfterTheFirstTokensExpiredObtainsFreshOnes", "default",
        String.format("AM killed at +%.1f s (first tokens ended at +%d s); attempt 2 on another node; %d of %d batches"
            + " done, %d after the kill; attempt 2 obtained tokens %d time(s)", (killedAt - t0) / 1000.0,
            TOKEN_MAX_LIFETIME.toSeconds(), batches, RESTART_BATCHES, afterKill, obtained.size()),
        "killed_at_s", (killedAt - t0) / 1000.0, "batches_done", batches, "batches_after_kill", afterKill,
        "attempt2_token_fetches", obtained.size());
  }

  /**
   * No token's password and no secret key any of the application's containers was launched with,
   * in any encoding a token or key is written in, appears in the container logs, the event log,
   * the client's output or the live UI's pages. Returns how many texts were searched.
   */
  private static int credentialsNeverShown(ApplicationId id, String clientOutput, String uiPages) throws IOException {
    List<String> forms = new ArrayList<>();
    for (Credentials c : containerTokens(id).values()) {
      for (Token<?> t : c.getAllTokens()) {
        forms.addAll(ItCluster.encodings(t.getPassword()));
        forms.add(t.encodeToUrlString());
      }
      for (org.apache.hadoop.io.Text alias : c.getAllSecretKeys()) {
        forms.addAll(ItCluster.encodings(c.getSecretKey(alias)));
      }
    }
    assertTrue(forms.size() >= 3 * 4, "the AM's AMRMToken, HDFS token and app secret at least: " + forms.size());
    Map<String, String> texts = new TreeMap<>();
    texts.put("client output", clientOutput);
    texts.put("live UI", uiPages);
    try (java.io.InputStream in = secure.fileSystem().open(new Path(EVENTS, id + ".jsonl"))) {
      texts.put("event log", new String(in.readAllBytes(), StandardCharsets.ISO_8859_1));
    }
    for (java.nio.file.Path f : it.appLogFiles(id)) {
      texts.put(f.toString(), new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1));
    }
    assertTrue(texts.keySet().stream().filter(k -> k.endsWith("executor.log")).count() >= 2, texts.keySet().toString());
    for (Map.Entry<String, String> text : texts.entrySet()) {
      for (String form : forms) {
        assertFalse(text.getValue().contains(form), "a token's password or a secret is in the " + text.getKey());
      }
    }
    return texts.size();
  }

  /** The keytab is localized for the AM container alone: no executor's work dir links to it. */
  private static void keytabOnlyInTheAmContainer(ApplicationId id) throws IOException {
    List<java.nio.file.Path> containers;
    containers = ItCluster.paths(it.cluster.workDir(), p -> p.toString().contains("/appcache/" + id + "/")
        && p.getFileName().toString().startsWith("container_") && Files.isDirectory(p));
    List<String> holders = containers.stream().filter(c -> Files.exists(c.resolve("__keytab__"), java.nio.file.LinkOption.NOFOLLOW_LINKS))
        .map(c -> c.getFileName().toString()).toList();
    assertEquals(1, holders.size(), "only one container holds the keytab: " + holders + " of " + containers);
    assertTrue(holders.get(0).endsWith("_01_000001"), "the AM's: " + holders);
  }

  private static void awaitEvents(ApplicationId id, String type, int count) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (ItCluster.ofType(events(id), type).size() < count) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("fewer than " + count + " " + type + " in " + id + "'s event log");
      }
      Thread.sleep(250);
    }
  }

  /** The am.log of the application's attempt {@code attempt} (its AM container is {@code _0<attempt>_000001}). */
  private static java.nio.file.Path amLog(ApplicationId id, int attempt) throws IOException {
    String container = String.format("_%02d_000001", attempt);
    return containerFiles(id, "am.log").stream().filter(p -> p.getParent().getFileName().toString().endsWith(container))
        .findFirst().orElseThrow(() -> new AssertionError("no am.log of attempt " + attempt + " of " + id));
  }

  /** The NodeManager dir ({@code nm-<i>}) a container file lives under. */
  private static String nodeDir(java.nio.file.Path file) {
    java.nio.file.Path rel = it.cluster.workDir().relativize(file);
    return rel.getName(0).toString();
  }

  private static ItCluster.ClientRun submit(String... args) {
    List<String> all = new ArrayList<>(List.of("submit",
        "--conf", "elasticam.yarn.principal=" + secure.principal(SecureHdfs.USER),
        "--conf", "elasticam.yarn.keytab=" + secure.keytab().getAbsolutePath(),
        "--conf", "elasticam.shuffle.service.enabled=false",
        "--conf", "elasticam.eventLog.dir=" + EVENTS));
    all.addAll(List.of(args));
    return it.client(it.conf(), all.toArray(new String[0]));
  }

  private static Path staging(ApplicationId id) {
    return new Path(HOME, ".elasticam/staging/" + id);
  }

  private static void giveToUser(FileSystem fs, Path dir) throws IOException {
    fs.setOwner(dir, SecureHdfs.USER, SecureHdfs.USER);
    for (FileStatus f : fs.listStatus(dir)) {
      fs.setOwner(f.getPath(), SecureHdfs.USER, SecureHdfs.USER);
    }
  }

  /** The application's event log on HDFS, read as the HDFS superuser. */
  private static List<JsonNode> events(ApplicationId id) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    FileSystem fs = secure.fileSystem();
    Path log = new Path(EVENTS, id + ".jsonl");
    if (!fs.exists(log)) {
      return out;
    }
    try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(log), StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (!line.isBlank()) {
          out.add(JSON.readTree(line));
        }
      }
    }
    return out;
  }

  private static ApplicationId awaitApplication(CompletableFuture<ItCluster.ClientRun> job) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    FileSystem fs = secure.fileSystem();
    while (System.nanoTime() < deadline) {
      if (job.isDone()) {
        throw new AssertionError("the run ended before its application started: " + job.get().out() + job.get().err());
      }
      if (fs.exists(EVENTS)) {
        for (FileStatus f : fs.listStatus(EVENTS)) {
          ApplicationId id = ApplicationId.fromString(f.getPath().getName().replace(".jsonl", ""));
          if (ItCluster.ofType(events(id), "app_end").isEmpty()) {
            return id;
          }
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no application started in time");
  }

  private static JsonNode awaitEvent(ApplicationId id, String type) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      List<JsonNode> found = ItCluster.ofType(events(id), type);
      if (!found.isEmpty()) {
        return found.get(0);
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no " + type + " in " + id + "'s event log");
  }

  /**
   * The tokens each of the application's containers was launched with: the file the NodeManager
   * wrote for it in its private dir ({@code nmPrivate/<app>/<container>/<container>.tokens}) and
   * copied into the container's work dir; the private copy outlives the application.
   */
  private static Map<String, Credentials> containerTokens(ApplicationId id) throws IOException {
    Map<String, Credentials> out = new TreeMap<>();
    for (java.nio.file.Path f : ItCluster.paths(it.cluster.workDir(), p -> p.toString().contains("/nmPrivate/" + id + "/")
        && p.getFileName().toString().matches("container_.*\\.tokens"))) {
      out.put(f.getParent().getFileName().toString(), Credentials.readTokenStorageFile(f.toFile(),
          new Configuration(false)));
    }
    return out;
  }

  private static List<String> kinds(Credentials c) {
    return c.getAllTokens().stream().map(t -> t.getKind().toString()).sorted().toList();
  }

  private static org.apache.hadoop.io.Text hdfsAlias(Credentials c) {
    return c.getTokenMap().entrySet().stream()
        .filter(e -> e.getValue().getKind().equals(DelegationTokenIdentifier.HDFS_DELEGATION_KIND))
        .map(Map.Entry::getKey).findFirst().orElseThrow(() -> new AssertionError("no HDFS token in " + kinds(c)));
  }

  /** Lines of the executors' logs (not the AM's) that contain {@code text}. */
  private static List<String> executorLogLines(ApplicationId id, String text) throws IOException {
    List<String> out = new ArrayList<>();
    for (java.nio.file.Path f : containerFiles(id, "executor.log")) {
      Files.readAllLines(f).stream().filter(l -> l.contains(text)).forEach(out::add);
    }
    return out;
  }

  /** The application's container files of that name, on every node, as {@code <containerId>/<name>}. */
  private static List<java.nio.file.Path> containerFiles(ApplicationId id, String name) throws IOException {
    return ItCluster.paths(it.cluster.workDir(), p -> p.getFileName().toString().equals(name)
        && p.toString().contains("/" + id + "/"));
  }

  /**
   * A page through the ResourceManager's web proxy, as a user who was shown the proxy's warning
   * about another user's application (a secure cluster's proxy shows it first) and went on: the
   * proxy's cookie that records it. The proxy's user here is its web UI's static user, not the owner.
   */
  private static String throughTheProxy(String url, ApplicationId id) throws IOException {
    java.net.HttpURLConnection c = (java.net.HttpURLConnection) java.net.URI.create(url).toURL().openConnection();
    c.setRequestProperty("Cookie", "checked_" + id + "=true");
    c.setConnectTimeout(5000);
    c.setReadTimeout(10_000);
    try (java.io.InputStream in = c.getInputStream()) {
      assertEquals(200, c.getResponseCode(), url);
      String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertFalse(body.contains("may not be safe"), "the proxy's warning instead of the page: " + url);
      return body;
    } finally {
      c.disconnect();
    }
  }
}
