package org.elasticam.embedded.run;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.elasticam.embedded.EmbeddedCluster;
import org.elasticam.embedded.ShuffleServiceInstall;

/**
 * {@code bin/elasticam run}: starts the embedded YARN cluster, submits the job with the same client
 * `yarn jar` runs — in its own JVM, from the distributable jar, exactly as on a real cluster — and
 * ends with where the logs are. Exit code: the client's (0 succeeded, 1 failed, 2 usage or
 * configuration).
 */
public final class RunMain {

  private static final Pattern APP_ID = Pattern.compile("(application_\\d+_\\d+)");
  private static final String CLIENT_MAIN = "org.elasticam.am.client.ElasticamCli";

  private RunMain() {}

  public static void main(String[] argv) throws Exception {
    RunArgs args;
    try {
      args = RunArgs.parse(Arrays.asList(argv));
    } catch (IllegalArgumentException e) {
      System.err.println("elasticam: " + e.getMessage());
      System.exit(2);
      return;
    }
    if (args.help()) {
      System.out.println(RunArgs.USAGE);
      System.exit(args.clientArgs().isEmpty() && !args.helpAsked() ? 2 : 0);
      return;
    }
    System.exit(run(args, System.out, System.err));
  }

  static int run(RunArgs args, PrintStream out, PrintStream err) throws Exception {
    Path work = args.workDir().resolve("run-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    Files.createDirectories(work);
    List<String> hadoopClasspath = List.of(Files.readString(args.classpathFile()).trim().split(java.io.File.pathSeparator));
    EmbeddedCluster.Settings settings = EmbeddedCluster.Settings.in(work)
        .withNodeManagers(args.nodes())
        .withNodeResources(args.nodeMemoryMb(), args.nodeVcores())
        .withApplicationClasspath(hadoopClasspath);
    if (args.shuffleJar().isPresent()) {
      settings = settings.withShuffleService(ShuffleServiceInstall.onClasspath(args.shuffleJar().get()));
    }
    out.println("Starting the embedded YARN cluster (" + args.nodes() + " NodeManagers of " + args.nodeMemoryMb()
        + " MiB, " + args.nodeVcores() + " vcores)...");
    long t0 = System.nanoTime();
    try (EmbeddedCluster cluster = EmbeddedCluster.start(settings)) {
      out.printf("Cluster up in %.1f s: nodes %s; cluster log %s%n", (System.nanoTime() - t0) / 1e9,
          cluster.nodeHosts(), work.resolve("cluster.log"));
      Process client = startClient(args, cluster, hadoopClasspath);
      Thread hook = new Thread(() -> waitQuietly(client));
      Runtime.getRuntime().addShutdownHook(hook);
      String appId = relay(client, out);
      int code = client.waitFor();
      Runtime.getRuntime().removeShutdownHook(hook);
      if (appId != null) {
        out.println("  AM and executor logs:");
        for (int i = 0; i < args.nodes(); i++) {
          Path dir = cluster.nodeManagerLogDir(i).resolve(appId);
          if (Files.isDirectory(dir)) {
            out.println("    " + dir + "/<container>/{am.log,AppMaster.stderr,executor.log,stderr}");
          }
        }
      }
      out.println("Stopping the embedded cluster.");
      return code;
    }
  }

  private static Process startClient(RunArgs args, EmbeddedCluster cluster, List<String> hadoopClasspath)
      throws IOException {
    List<String> cp = new ArrayList<>();
    cp.add(cluster.confDir().toString());
    cp.add(args.appJar().toString());
    cp.addAll(hadoopClasspath);
    List<String> cmd = new ArrayList<>(List.of(args.java(), "-Xmx512m",
        "-Delasticam.terminal=" + (System.console() != null),
        "-Dlog4j.configuration=elasticam-client-log4j.properties",
        "-cp", String.join(java.io.File.pathSeparator, cp), CLIENT_MAIN, "submit"));
    if (args.shuffleJar().isPresent()) {
      // The cluster has the service, so applications use it unless the user's own --conf says otherwise.
      cmd.addAll(List.of("--conf", "elasticam.shuffle.service.enabled=true"));
    }
    cmd.addAll(args.clientArgs());
    return new ProcessBuilder(cmd).redirectErrorStream(false).redirectError(ProcessBuilder.Redirect.INHERIT)
        .redirectInput(ProcessBuilder.Redirect.INHERIT).start();
  }

  /** Passes the client's output through unchanged and notes the application id it printed. */
  private static String relay(Process client, PrintStream out) throws IOException {
    String appId = null;
    StringBuilder line = new StringBuilder();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8))) {
      int c;
      while ((c = r.read()) >= 0) {
        out.print((char) c);
        if (c == '\n' || c == '\r') {
          out.flush();
          if (appId == null) {
            Matcher m = APP_ID.matcher(line);
            appId = m.find() ? m.group(1) : null;
          }
          line.setLength(0);
        } else {
          line.append((char) c);
        }
      }
    }
    out.flush();
    return appId;
  }

  /** On Ctrl-C the client kills the application itself; the cluster waits for it before stopping. */
  private static void waitQuietly(Process client) {
    try {
      client.waitFor(15, java.util.concurrent.TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
