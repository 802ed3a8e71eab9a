package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.util.RunJar;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The product installed exactly as the README says, on a cluster of real processes: a
 * ResourceManager and a NodeManager in JVMs of their own, from the Maven-resolved Hadoop jars, with
 * the README's yarn-site.xml snippet verbatim and the shaded shuffle jar on the NodeManager's
 * classpath (src-it/deploy/pseudo-cluster.sh does the install, as an operator would by hand), and a
 * wordcount with dynamic allocation submitted through {@link RunJar}, which is what {@code yarn jar}
 * runs. Nothing of ElasticAM runs in this JVM: the test only drives the script and reads results.
 */
class DeploymentIT {

  private static final Path SCRIPT = Path.of("deploy", "pseudo-cluster.sh").toAbsolutePath();
  private static final Pattern APP_ID = Pattern.compile("application_\\d+_\\d+");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int REDUCERS = 3;

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void wordcountWithDynamicAllocationRunsOnRealDaemonsInstalledAsTheReadmeSays() throws Exception {
    Path work = Path.of("target", "deployment").toAbsolutePath();
    deleteTree(work);
    Files.createDirectories(work);
    List<Integer> ports = freePorts(8);
    Map<String, String> env = Map.of(
        "PSEUDO_RM_PORTS", ports.subList(0, 5).stream().map(String::valueOf).collect(Collectors.joining(" ")),
        "PSEUDO_NM_PORTS", ports.subList(5, 8).stream().map(String::valueOf).collect(Collectors.joining(" ")));
    FileSystem local = FileSystem.getLocal(new Configuration());
    org.apache.hadoop.fs.Path input = new org.apache.hadoop.fs.Path(work.resolve("input").toUri());
    org.apache.hadoop.fs.Path output = new org.apache.hadoop.fs.Path(work.resolve("output").toUri());
    Corpus.write(local, input, 4, 256 << 10, 11);
    Map<String, Long> expected = Corpus.count(local, input);

    Result up = script(env, work, Duration.ofMinutes(4), "up", work.toString());
    try {
      assertEquals(0, up.exitCode(), "the cluster came up: " + up.output() + logs(work));
      String yarnSite = Files.readString(work.resolve("conf/yarn-site.xml"));
      assertTrue(yarnSite.contains(readmeSnippet()), "yarn-site.xml holds the README's snippet verbatim");
      assertTrue(Files.exists(work.resolve("hadoop/share/hadoop/yarn/lib").resolve(ShuffleJar.path().getFileName())),
          "the shaded jar is in a directory on the NodeManager's classpath");

      // The README's submission line, with this test's paths and a short idle timeout so executors go
      // while the reduce stage is held back; reducers fetch through the service, not from local disk.
      Result job = script(env, work, Duration.ofMinutes(5), "submit", work.toString(), "submit",
          "wordcount", "--input", input.toString(), "--output", output.toString(),
          "--reducers", String.valueOf(REDUCERS), "--pause-ms", "5000",
          "--conf", "elasticam.dynamicAllocation.enabled=true",
          "--conf", "elasticam.shuffle.service.enabled=true",
          "--conf", "elasticam.dynamicAllocation.maxExecutors=3",
          "--conf", "elasticam.dynamicAllocation.schedulerBacklogTimeout=500ms",
          "--conf", "elasticam.dynamicAllocation.executorIdleTimeout=2s",
          "--conf", "elasticam.shuffle.readLocalDirectly=false",
          "--conf", "elasticam.executor.memory=384m",
          "--conf", "elasticam.eventLog.dir=" + work.resolve("events").toUri(),
          "--conf", "elasticam.yarn.stagingDir=" + work.resolve("staging").toUri());
      assertEquals(0, job.exitCode(), "the job succeeded: " + job.output() + logs(work));
      assertEquals(expected, Corpus.output(local, output, REDUCERS));

      Matcher m = APP_ID.matcher(job.output());
      assertTrue(m.find(), job.output());
      List<JsonNode> events = events(work.resolve("events").resolve(m.group() + ".jsonl"));
      assertTrue(events.stream().anyMatch(e -> e.path("event").asText().equals("executor_removed")
          && e.path("reason").asText().equals("idle")), "dynamic allocation removed idle executors: "
          + events.stream().map(e -> e.path("event").asText() + " " + e.path("reason").asText("")).toList());

      JsonNode shuffle = nodeManagerJmx(ports.get(7), "Hadoop:service=NodeManager,name=ElasticamShuffle");
      assertTrue(shuffle.path("RegisteredExecutors").isNumber(), shuffle.toString());
      assertTrue(shuffle.path("Requests").asLong() > 0, "the service answered requests: " + shuffle);
      assertTrue(shuffle.path("BlocksSent").asLong() > 0, "reducers fetched blocks from it: " + shuffle);
      assertTrue(shuffle.path("BytesSent").asLong() > 0, shuffle.toString());
    } finally {
      Result down = script(env, work, Duration.ofMinutes(2), "down", work.toString());
      assertEquals(0, down.exitCode(), down.output());
    }
  }

  private record Result(int exitCode, String output) {}

  private static Result script(Map<String, String> env, Path work, Duration limit, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
    command.addAll(List.of(args));
    Path out = Files.createTempFile(work, "script-", ".out");
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
    pb.environment().putAll(env);
    Process p = pb.start();
    if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly().waitFor();
      return new Result(-1, "timed out after " + limit + ": " + Files.readString(out));
    }
    return new Result(p.exitValue(), Files.readString(out));
  }

  /** The README's first yarn-site.xml block under "On the NodeManager's classpath". */
  private static String readmeSnippet() throws IOException {
    String readme = Files.readString(Path.of("..", "README.md"));
    int section = readme.indexOf("**On the NodeManager's classpath.**");
    int start = readme.indexOf("```xml\n", section) + "```xml\n".length();
    return readme.substring(start, readme.indexOf("```", start));
  }

  private static JsonNode nodeManagerJmx(int webPort, String bean) throws IOException, InterruptedException {
    URI uri = URI.create("http://127.0.0.1:" + webPort + "/jmx?qry=" + bean);
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), r.body());
    JsonNode beans = JSON.readTree(r.body()).path("beans");
    assertEquals(1, beans.size(), "the NodeManager's JMX has the shuffle service's bean: " + r.body());
    return beans.get(0);
  }

  private static List<JsonNode> events(Path log) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      out.add(JSON.readTree(line));
    }
    return out;
  }

  /** The daemons' logs and the containers' stderr, for a failure message. */
  private static String logs(Path work) throws IOException {
    StringBuilder b = new StringBuilder();
    try (Stream<Path> files = Files.walk(work)) {
      for (Path f : files.filter(p -> Files.isRegularFile(p) && (p.toString().endsWith(".out")
          && p.getParent().endsWith("logs") || p.getFileName().toString().endsWith("stderr")
          || p.getFileName().toString().equals("prelaunch.err"))).toList()) {
        List<String> lines = Files.readAllLines(f, StandardCharsets.ISO_8859_1);
        b.append("\n--- ").append(f).append(" (last 40 lines)\n");
        lines.subList(Math.max(0, lines.size() - 40), lines.size()).forEach(l -> b.append(l).append('\n'));
      }
    }
    return b.toString();
  }

  private static List<Integer> freePorts(int n) throws IOException {
    List<ServerSocket> held = new ArrayList<>();
    try {
      for (int i = 0; i < n; i++) {
        held.add(new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress()));
      }
      return held.stream().map(ServerSocket::getLocalPort).toList();
    } finally {
      for (ServerSocket s : held) {
        s.close();
      }
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
