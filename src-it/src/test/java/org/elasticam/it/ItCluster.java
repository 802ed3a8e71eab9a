package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.elasticam.am.client.ElasticamCli;
import org.elasticam.embedded.EmbeddedCluster;
import org.elasticam.report.RunHistory;

/**
 * One embedded cluster for a test class, with the real distributable jar and the same Hadoop
 * classpath for containers that bin/elasticam run uses, and helpers to run the real client and
 * read an application's event log.
 */
final class ItCluster implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  final EmbeddedCluster cluster;
  final Path eventLogDir;
  final Path appJar;
  /**
   * Submissions keep their start-up archives in one directory for the whole run, as the nodes of a
   * long-lived cluster keep theirs across applications, instead of each test's new nodes making
   * them again; StartupArchiveIT turns it off to test the default place.
   */
  boolean sharedStartupArchives = true;

  /** Where {@link #sharedStartupArchives} keeps them: one per build of the suite. */
  static final Path SHARED_STARTUP_ARCHIVES = Path.of("target", "it-startup-archives").toAbsolutePath();

  private ItCluster(EmbeddedCluster cluster, Path eventLogDir, Path appJar) {
    this.cluster = cluster;
    this.eventLogDir = eventLogDir;
    this.appJar = appJar;
  }

  static ItCluster start(String name, UnaryOperator<EmbeddedCluster.Settings> tune) throws Exception {
    Path work = Path.of("target", "it-clusters", name + "-" + System.currentTimeMillis()).toAbsolutePath();
    Files.createDirectories(work);
    EmbeddedCluster.Settings s = EmbeddedCluster.Settings.in(work).withApplicationClasspath(hadoopClasspath());
    EmbeddedCluster c = EmbeddedCluster.start(tune.apply(s));
    return new ItCluster(c, work.resolve("events"), appJar());
  }

  /** The Hadoop classpath bin/elasticam gives containers, from the embedded module's build. */
  static List<String> hadoopClasspath() throws IOException {
    Path file = Path.of("..", "embedded", "target", "classpath.txt");
    if (!Files.exists(file)) {
      throw new IllegalStateException("run the build through `mvn verify`: " + file.toAbsolutePath() + " is missing");
    }
    return List.of(Files.readString(file).trim().split(java.io.File.pathSeparator));
  }

  /** The shaded elasticam-<version>.jar the am module packaged. */
  static Path appJar() throws IOException {
    try (DirectoryStream<Path> d = Files.newDirectoryStream(Path.of("..", "am", "target"), "elasticam-*.jar")) {
      for (Path p : d) {
        String n = p.getFileName().toString();
        if (!n.startsWith("elasticam-am-")) {
          return p.toAbsolutePath();
        }
      }
    }
    throw new IllegalStateException("the distributable jar is missing from am/target; build with `mvn verify`");
  }

  Configuration conf() {
    return cluster.configuration();
  }

  /** What the client printed, and its exit code. */
  record ClientRun(int exitCode, String out, String err) {
    ApplicationId appId() {
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("(application_\\d+_\\d+)").matcher(out);
      if (!m.find()) {
        throw new AssertionError("the client printed no application id:\n" + out + "\n" + err);
      }
      return ApplicationId.fromString(m.group(1));
    }
  }

  /** Runs the real client (the code `yarn jar … submit` runs), against this cluster. */
  ClientRun client(String... args) {
    return client(conf(), args);
  }

  ClientRun client(Configuration conf, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> all = new ArrayList<>(List.of(args));
    if (all.get(0).equals("submit") && !String.join(" ", args).contains("elasticam.eventLog.dir")) {
      // Right after "submit": anything after a user job's --class belongs to the job.
      all.addAll(1, List.of("--conf", "elasticam.eventLog.dir=" + eventLogDir.toUri()));
    }
    if (all.get(0).equals("submit") && sharedStartupArchives && !String.join(" ", args).contains("startupArchive.dir")) {
      all.addAll(1, List.of("--conf", "elasticam.executor.startupArchive.dir=" + SHARED_STARTUP_ARCHIVES));
    }
    int code = new ElasticamCli(conf, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), appJar).run(all.toArray(new String[0]));
    return new ClientRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  Path eventLog(ApplicationId id) {
    return eventLogDir.resolve(id + ".jsonl");
  }

  /**
   * The application's event log, line by line. Every IT that reads one also holds it to the schema
   * (report.events.Event): the reader the report and the live page use finds no event and no field
   * the schema does not declare.
   */
  List<JsonNode> events(ApplicationId id) throws IOException {
    List<String> lines = Files.readAllLines(eventLogDir.resolve(id + ".jsonl"));
    List<JsonNode> out = new ArrayList<>();
    for (String line : lines) {
      out.add(JSON.readTree(line));
    }
    holdToSchema(id.toString(), lines);
    return out;
  }

  /** Fails when the reader the report and the live page use finds anything the schema does not declare. */
  static void holdToSchema(String app, List<String> lines) throws IOException {
    if (lines.isEmpty()) {
      return;
    }
    try {
      RunHistory h = RunHistory.read(new BufferedReader(new StringReader(String.join("\n", lines))));
      assertEquals(Set.of(), h.beyondSchema(),
          "the AM wrote events or fields the event log's schema does not declare (" + app + ")");
    } catch (RunHistory.BadEventLogException e) {
      throw new AssertionError("the event log of " + app + " does not read: " + e.getMessage(), e);
    }
  }

  /** The running application whose stage {@code stageId} completed first, while {@code job} still runs. */
  ApplicationId awaitStageCompleted(java.util.concurrent.CompletableFuture<ClientRun> job, int stageId)
      throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    while (System.nanoTime() < deadline) {
      if (job.isDone()) {
        throw new AssertionError("the job ended before stage " + stageId + " was seen: " + job.get().out()
            + job.get().err());
      }
      try (java.util.stream.Stream<Path> logs = Files.list(eventLogDir)) {
        for (Path log : logs.toList()) {
          ApplicationId id = ApplicationId.fromString(log.getFileName().toString().replace(".jsonl", ""));
          List<JsonNode> events = events(id);
          boolean done = ofType(events, "stage_completed").stream()
              .anyMatch(e -> e.path("stage_id").asInt() == stageId);
          if (done && ofType(events, "app_end").isEmpty()) {
            return id;
          }
        }
      } catch (IOException e) {
        // the log dir appears with the first application
      }
      Thread.sleep(200);
    }
    throw new AssertionError("stage " + stageId + " did not complete in time");
  }

  /** The application a client run submitted, once its event log exists, while the run goes on. */
  ApplicationId awaitApplication(java.util.concurrent.CompletableFuture<ClientRun> job) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      if (job.isDone()) {
        throw new AssertionError("the run ended before its application started: " + job.get().out() + job.get().err());
      }
      try (java.util.stream.Stream<Path> logs = Files.list(eventLogDir)) {
        List<Path> all = logs.toList();
        for (Path log : all) {
          ApplicationId id = ApplicationId.fromString(log.getFileName().toString().replace(".jsonl", ""));
          if (ofType(events(id), "app_end").isEmpty()) {
            return id;
          }
        }
      } catch (IOException e) {
        // the log dir appears with the first application
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no application started in time");
  }

  /** Every file of the application's container logs, on every node. */
  List<Path> appLogFiles(ApplicationId id) throws IOException {
    return paths(cluster.workDir(), p -> Files.isRegularFile(p) && p.toString().contains("/logs/")
        && p.toString().contains(id.toString()));
  }

  /**
   * Every file and directory under {@code root} that {@code keep} accepts. The NodeManagers delete
   * a finished application's directories while a test looks: what vanishes during the walk is
   * skipped, not an error.
   */
  static List<Path> paths(Path root, java.util.function.Predicate<Path> keep) throws IOException {
    List<Path> out = new ArrayList<>();
    Files.walkFileTree(root, new java.nio.file.SimpleFileVisitor<>() {
      @Override
      public java.nio.file.FileVisitResult preVisitDirectory(Path dir, java.nio.file.attribute.BasicFileAttributes a) {
        if (keep.test(dir)) {
          out.add(dir);
        }
        return java.nio.file.FileVisitResult.CONTINUE;
      }

      @Override
      public java.nio.file.FileVisitResult visitFile(Path file, java.nio.file.attribute.BasicFileAttributes a) {
        if (keep.test(file)) {
          out.add(file);
        }
        return java.nio.file.FileVisitResult.CONTINUE;
      }

      @Override
      public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
        if (e instanceof java.nio.file.NoSuchFileException) {
          return java.nio.file.FileVisitResult.CONTINUE;
        }
        throw e;
      }
    });
    return out;
  }

  /** A secret as logs or pages could show it: base64, URL-safe base64 without padding, hex. */
  static List<String> encodings(byte[] secret) {
    return List.of(java.util.Base64.getEncoder().encodeToString(secret),
        java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(secret),
        java.util.HexFormat.of().formatHex(secret));
  }

  /** The body of a GET that must answer 200. */
  static String httpBody(String url) throws IOException {
    java.net.HttpURLConnection c = (java.net.HttpURLConnection) java.net.URI.create(url).toURL().openConnection();
    c.setConnectTimeout(5000);
    c.setReadTimeout(10_000);
    try (var in = c.getInputStream()) {
      org.junit.jupiter.api.Assertions.assertEquals(200, c.getResponseCode(), url);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      c.disconnect();
    }
  }

  /** An HTTP answer as it came off the socket: nothing followed, the body as sent (chunked or not). */
  record RawHttp(int status, java.util.Map<String, String> headers, String body) {
    String header(String name) {
      return headers.getOrDefault(name.toLowerCase(java.util.Locale.ROOT), "");
    }
  }

  /**
   * One HTTP/1.1 request to {@code url} from a socket bound to {@code from}: the AM's live page
   * lets requests from a proxy host through and redirects the rest, so where a request comes from
   * is what a test chooses.
   */
  static RawHttp http(java.net.InetAddress from, String method, java.net.URI url) throws IOException {
    try (java.net.Socket s = new java.net.Socket()) {
      s.bind(new java.net.InetSocketAddress(from, 0));
      s.connect(new java.net.InetSocketAddress(url.getHost(), url.getPort()), 5000);
      s.setSoTimeout(10_000);
      String target = url.getRawPath() + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery());
      s.getOutputStream().write((method + " " + target + " HTTP/1.1\r\nHost: " + url.getHost() + ":" + url.getPort()
          + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int end = answer.indexOf("\r\n\r\n");
      String[] head = answer.substring(0, end < 0 ? answer.length() : end).split("\r\n");
      java.util.Map<String, String> headers = new java.util.TreeMap<>();
      for (int i = 1; i < head.length; i++) {
        int colon = head[i].indexOf(':');
        headers.put(head[i].substring(0, colon).trim().toLowerCase(java.util.Locale.ROOT),
            head[i].substring(colon + 1).trim());
      }
      return new RawHttp(Integer.parseInt(head[0].split(" ")[1]), headers, end < 0 ? "" : answer.substring(end + 4));
    }
  }

  /** The ResourceManager's web proxy, {@code host:port}, as YARN names it to AMs and users. */
  String proxyHostAndPort() {
    return org.apache.hadoop.yarn.webapp.util.WebAppUtils.getProxyHostAndPort(conf());
  }

  /**
   * An application's live page through the ResourceManager's web proxy. Its report's tracking URL
   * says the same, except for the port: this cluster's ResourceManager puts the port it was
   * configured with there (0, for a free one).
   */
  String proxiedTrackingUrl(ApplicationId id) {
    return "http://" + proxyHostAndPort() + "/proxy/" + id + "/";
  }

  /**
   * The address the ResourceManager's web proxy sends its requests from, and so the one the AM's
   * filter lets through: the proxy binds them to its host name's address, which on some machines
   * is not 127.0.0.1.
   */
  java.net.InetAddress proxyAddress() throws IOException {
    return java.net.InetAddress.getByName(java.net.URI.create("http://" + proxyHostAndPort()).getHost());
  }

  static List<JsonNode> ofType(List<JsonNode> events, String type) {
    return events.stream().filter(e -> e.path("event").asText().equals(type)).toList();
  }

  ApplicationReport waitForEnd(ApplicationId id, Duration timeout) throws Exception {
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(conf());
      yarn.start();
      long deadline = System.nanoTime() + timeout.toNanos();
      while (System.nanoTime() < deadline) {
        ApplicationReport r = yarn.getApplicationReport(id);
        YarnApplicationState s = r.getYarnApplicationState();
        if (s == YarnApplicationState.FINISHED || s == YarnApplicationState.FAILED || s == YarnApplicationState.KILLED) {
          return r;
        }
        Thread.sleep(200);
      }
      yarn.killApplication(id);
      throw new AssertionError(id + " did not finish within " + timeout);
    }
  }

  ApplicationReport report(ApplicationId id) throws Exception {
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(conf());
      yarn.start();
      return yarn.getApplicationReport(id);
    }
  }

  /** The staging dir the client used for an application: under the user's home on fs.defaultFS. */
  org.apache.hadoop.fs.Path stagingDir(ApplicationId id) throws IOException {
    FileSystem fs = FileSystem.get(conf());
    return new org.apache.hadoop.fs.Path(fs.getHomeDirectory(), ".elasticam/staging/" + id);
  }

  /** Polls the event log until {@code count} events of {@code type} are in it. */
  List<JsonNode> awaitEvents(ApplicationId id, String type, int count, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.exists(eventLogDir.resolve(id + ".jsonl"))) {
        List<JsonNode> e = ofType(events(id), type);
        if (e.size() >= count) {
          return e;
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no " + count + " " + type + " events in " + id + "'s log within " + timeout);
  }

  @Override
  public void close() {
    cluster.close();
  }
}
