package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.util.RunJar;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The product installed exactly as the README says, on a cluster of real processes: a
 * ResourceManager and a NodeManager in JVMs of their own, from the Maven-resolved jars of a Hadoop
 * release, with the README's yarn-site.xml snippet verbatim and the shaded shuffle jar installed in
 * one of its two ways (src-it/deploy/pseudo-cluster.sh does the install, as an operator would by
 * hand), and a wordcount with dynamic allocation submitted through {@link RunJar}, which is what
 * {@code yarn jar} runs — with the client's classpath of that release, as on such a cluster, so the
 * client, the AM and the executors, built against Hadoop 3.4, run on that release's classes too.
 * Nothing of ElasticAM runs in this JVM: the test only drives the script and reads results.
 *
 * <p>Which releases and install modes: {@code elasticam.deploy.matrix}, {@code version:mode} pairs
 * (CI: the newest and the oldest release that runs here; {@code -Phadoop-matrix}: all of them).
 */
class DeploymentIT {

  private static final Pattern APP_ID = Pattern.compile("application_\\d+_\\d+");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int REDUCERS = 3;
  /** The Hadoop release this build compiles against and its embedded cluster runs. */
  private static final String BUILD_HADOOP = System.getProperty("elasticam.build.hadoopVersion", "3.4.1");

  static Stream<Arguments> installs() {
    String matrix = System.getProperty("elasticam.deploy.matrix", BUILD_HADOOP + ":classpath");
    return Arrays.stream(matrix.split(",")).map(String::strip).filter(p -> !p.isEmpty())
        .map(p -> Arguments.of(p.split(":")[0], p.split(":")[1]));
  }

  @ParameterizedTest(name = "Hadoop {0}, shuffle jar {1}")
  @MethodSource("installs")
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void wordcountWithDynamicAllocationRunsOnRealDaemonsInstalledAsTheReadmeSays(String hadoop, String install)
      throws Exception {
    DeployScripts.Cluster cluster = DeployScripts.Cluster.fresh("deployment-" + hadoop + "-" + install);
    Path work = cluster.work();
    Map<String, String> env = new HashMap<>(cluster.env());
    env.put("PSEUDO_SHUFFLE_INSTALL", install);
    if (!hadoop.equals(BUILD_HADOOP)) {
      env.put("HADOOP_VERSION", hadoop);
    }
    FileSystem local = FileSystem.getLocal(new Configuration());
    org.apache.hadoop.fs.Path input = cluster.local("input");
    org.apache.hadoop.fs.Path output = cluster.local("output");
    Corpus.write(local, input, 4, 256 << 10, 11);
    Map<String, Long> expected = Corpus.count(local, input);

    DeployScripts.Result up = script(env, work, Duration.ofMinutes(4), "up", work.toString());
    try {
      assertEquals(0, up.exitCode(), "the cluster came up: " + up.output() + DeployScripts.logs(work));
      String nmLog = Files.readString(work.resolve("logs/nm.out"));
      assertTrue(nmLog.contains("version = " + hadoop), "the NodeManager is Hadoop " + hadoop);
      assertTrue(Pattern.compile("ShuffleServer: Shuffle service listening on \\S+ \\(epoll transport\\)").matcher(nmLog)
          .find(), "the service runs on the native epoll transport its jar carries: " + shuffleLines(nmLog));
      assertFalse(nmLog.contains("runs on Netty's NIO transport"), shuffleLines(nmLog).toString());
      String yarnSite = Files.readString(work.resolve("conf/yarn-site.xml"));
      if (install.equals("isolated")) {
        assertTrue(yarnSite.contains(readmeSnippet("**In an isolated class loader.**")
            .replace("/opt/elasticam/", work.resolve("opt/elasticam") + "/")),
            "yarn-site.xml holds the README's isolated snippet verbatim, but for the jar's directory");
        assertTrue(Files.exists(work.resolve("opt/elasticam").resolve(ShuffleJar.path().getFileName())));
        assertFalse(Files.exists(work.resolve("hadoop/share/hadoop/yarn/lib").resolve(ShuffleJar.path().getFileName())),
            "not on the NodeManager's classpath");
      } else {
        assertTrue(yarnSite.contains(readmeSnippet("**On the NodeManager's classpath.**")),
            "yarn-site.xml holds the README's snippet verbatim");
        assertTrue(Files.exists(work.resolve("hadoop/share/hadoop/yarn/lib").resolve(ShuffleJar.path().getFileName())),
            "the shaded jar is in a directory on the NodeManager's classpath");
      }

      // The README's submission line, with this test's paths and a short idle timeout so executors go
      // while the reduce stage is held back; reducers fetch through the service, not from local disk.
      DeployScripts.Result job = script(env, work, Duration.ofMinutes(5), "submit", work.toString(), "submit",
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
      assertEquals(0, job.exitCode(), "the job succeeded: " + job.output() + DeployScripts.logs(work));
      assertEquals(expected, Corpus.output(local, output, REDUCERS));

      Matcher m = APP_ID.matcher(job.output());
      assertTrue(m.find(), job.output());
      List<JsonNode> events = DeployScripts.events(work.resolve("events").resolve(m.group() + ".jsonl"));
      assertTrue(events.stream().anyMatch(e -> e.path("event").asText().equals("executor_removed")
          && e.path("reason").asText().equals("idle")), "dynamic allocation removed idle executors: "
          + events.stream().map(e -> e.path("event").asText() + " " + e.path("reason").asText("")).toList());

      JsonNode shuffle = nodeManagerJmx(cluster.nodeManagerWebPort(), "Hadoop:service=NodeManager,name=ElasticamShuffle");
      assertTrue(shuffle.path("RegisteredExecutors").isNumber(), shuffle.toString());
      assertTrue(shuffle.path("Requests").asLong() > 0, "the service answered requests: " + shuffle);
      assertTrue(shuffle.path("BlocksSent").asLong() > 0, "reducers fetched blocks from it: " + shuffle);
      assertTrue(shuffle.path("BytesSent").asLong() > 0, shuffle.toString());
      assertEquals("epoll", shuffle.path("tag.Transport").asText(), shuffle.toString());
    } finally {
      DeployScripts.Result down = script(env, work, Duration.ofMinutes(2), "down", work.toString());
      assertEquals(0, down.exitCode(), down.output());
    }
  }

  private static List<String> shuffleLines(String log) {
    return log.lines().filter(l -> l.contains("ShuffleServer") || l.contains("Transport")).toList();
  }

  private static DeployScripts.Result script(Map<String, String> env, Path work, Duration limit, String... args)
      throws IOException, InterruptedException {
    return DeployScripts.run("pseudo-cluster.sh", env, work, limit, args);
  }

  /** The README's first yarn-site.xml block under {@code heading}. */
  private static String readmeSnippet(String heading) throws IOException {
    String readme = Files.readString(Path.of("..", "README.md"));
    int section = readme.indexOf(heading);
    assertTrue(section >= 0, heading);
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
}
