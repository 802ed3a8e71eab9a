package org.elasticam.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs the scripts under {@code src-it/deploy} that start clusters of real daemons, and reads what
 * they leave behind: event logs, and the daemons' and containers' logs for a failure message.
 */
final class DeployScripts {

  private static final ObjectMapper JSON = new ObjectMapper();

  private DeployScripts() {}

  record Result(int exitCode, String output) {}

  /** Runs {@code deploy/<script> args…} to its end or {@code limit}, whichever comes first. */
  static Result run(String script, Map<String, String> env, Path work, Duration limit, String... args)
      throws IOException, InterruptedException {
    Process p = start(script, env, work, args);
    Path out = outputOf(p);
    if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly().waitFor();
      return new Result(-1, "timed out after " + limit + ": " + Files.readString(out));
    }
    return new Result(p.exitValue(), Files.readString(out));
  }

  /** Starts {@code deploy/<script> args…}; its output goes to a file under {@code work}. */
  static Process start(String script, Map<String, String> env, Path work, String... args) throws IOException {
    List<String> command = new ArrayList<>(List.of("bash", Path.of("deploy", script).toAbsolutePath().toString()));
    command.addAll(List.of(args));
    Path out = Files.createTempFile(work, "script-", ".out");
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
    pb.environment().putAll(env);
    Process p = pb.start();
    OUTPUTS.put(p, out);
    return p;
  }

  private static final Map<Process, Path> OUTPUTS = new java.util.concurrent.ConcurrentHashMap<>();

  /** Where a process from {@link #start} writes its output. */
  static Path outputOf(Process p) {
    return OUTPUTS.get(p);
  }

  static List<JsonNode> events(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    List<JsonNode> out = new ArrayList<>();
    for (String line : lines) {
      out.add(JSON.readTree(line));
    }
    ItCluster.holdToSchema(log.getFileName().toString(), lines);
    return out;
  }

  /** The daemons' logs and the containers' stderr under {@code work}, for a failure message. */
  static String logs(Path work) throws IOException {
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

  /**
   * A cluster's work dir, emptied, and the ports its daemons take: the ResourceManager's five and a
   * NodeManager's three (container manager, localizer, web), free on this machine now.
   */
  record Cluster(Path work, Map<String, String> env, int nodeManagerWebPort) {

    static Cluster fresh(String name) throws IOException {
      Path work = Path.of("target", name).toAbsolutePath();
      deleteTree(work);
      Files.createDirectories(work);
      List<Integer> ports = freePorts(8);
      Map<String, String> env = Map.of(
          "PSEUDO_RM_PORTS", ports.subList(0, 5).stream().map(String::valueOf).collect(Collectors.joining(" ")),
          "PSEUDO_NM_PORTS", ports.subList(5, 8).stream().map(String::valueOf).collect(Collectors.joining(" ")));
      return new Cluster(work, env, ports.get(7));
    }

    /** A path under the work dir, as a Hadoop path on the local file system. */
    org.apache.hadoop.fs.Path local(String name) {
      return new org.apache.hadoop.fs.Path(work.resolve(name).toUri());
    }
  }

  static List<Integer> freePorts(int n) throws IOException {
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

  static void deleteTree(Path dir) throws IOException {
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
