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
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
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
  private static final String JOBS_HELP = "org/elasticam/am/client/jobs-help.txt";
  private static final int SHOWN_EXECUTOR_LOGS = 6;

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
      System.out.println(usage(args.appJar()));
      System.exit(args.clientArgs().isEmpty() && !args.helpAsked() ? 2 : 0);
      return;
    }
    System.exit(run(args, System.out, System.err));
  }

  static int run(RunArgs args, PrintStream out, PrintStream err) throws Exception {
    List<String> hadoopClasspath = List.of(Files.readString(args.classpathFile()).trim().split(java.io.File.pathSeparator));
    // What the client can refuse without a cluster (options, settings, a user job's class and stages)
    // it refuses before the cluster's seconds of start-up.
    int checked = startClient(args, null, hadoopClasspath, true).waitFor();
    if (checked != 0 || args.dryRun()) {
      if (args.dryRun() && checked == 0) {
        out.println("The job and its settings are valid; no cluster was started (--dry-run).");
      }
      return checked;
    }
    Path work = args.workDir().toAbsolutePath().resolve("run-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    Files.createDirectories(work);
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
      Process client = startClient(args, cluster, hadoopClasspath, false);
      Thread hook = new Thread(() -> waitQuietly(client));
      Runtime.getRuntime().addShutdownHook(hook);
      String appId = relay(client, out);
      int code = client.waitFor();
      Runtime.getRuntime().removeShutdownHook(hook);
      if (appId != null) {
        printLogs(cluster, args.nodes(), appId, out);
        awaitAmExit(cluster, appId, out);
      }
      out.println("Stopping the embedded cluster.");
      return code;
    }
  }

  /** Run's help: what it does, then the jobs and options of the client it runs (but --detach, which it refuses). */
  static String usage(Path appJar) {
    String jobs;
    try (JarFile jar = new JarFile(appJar.toFile())) {
      JarEntry e = jar.getJarEntry(JOBS_HELP);
      jobs = new String(jar.getInputStream(e).readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException | NullPointerException e) {
      jobs = "(the job list is in " + appJar + ", which cannot be read: " + e + ")\n";
    }
    String options = jobs.lines().filter(l -> !l.startsWith("  --detach")).collect(Collectors.joining("\n"));
    return RunArgs.USAGE_HEAD + "\n" + options + "\n" + RunArgs.USAGE_TAIL;
  }

  /** Longer than the AM's own wait for its start-up archive after it unregistered. */
  private static final java.time.Duration AM_EXIT_WAIT = java.time.Duration.ofSeconds(40);

  /**
   * The application is FINISHED once its AM unregistered, but the AM may still be making its
   * start-up archive for the next run: stopping the cluster now would end that too, and every run's
   * AM would start without one. Waits while the attempt is FINISHING (its container running).
   */
  private static void awaitAmExit(EmbeddedCluster cluster, String appId, PrintStream out) {
    try (org.apache.hadoop.yarn.client.api.YarnClient yarn = org.apache.hadoop.yarn.client.api.YarnClient
        .createYarnClient()) {
      yarn.init(cluster.configuration());
      yarn.start();
      org.apache.hadoop.yarn.api.records.ApplicationId id = org.apache.hadoop.yarn.api.records.ApplicationId
          .fromString(appId);
      long start = System.nanoTime();
      long deadline = start + AM_EXIT_WAIT.toNanos();
      boolean said = false;
      while (System.nanoTime() < deadline) {
        org.apache.hadoop.yarn.api.records.ApplicationAttemptId attempt = yarn.getApplicationReport(id)
            .getCurrentApplicationAttemptId();
        if (attempt == null || yarn.getApplicationAttemptReport(attempt).getYarnApplicationAttemptState()
            != org.apache.hadoop.yarn.api.records.YarnApplicationAttemptState.FINISHING) {
          return;
        }
        // Every AM's container ends a moment after it unregistered; only a longer wait is worth a line.
        if (!said && System.nanoTime() - start > java.util.concurrent.TimeUnit.SECONDS.toNanos(2)) {
          out.println("Waiting for the AM's container to end (it makes the AM's start-up archive for later runs).");
          said = true;
        }
        Thread.sleep(250);
      }
      out.println("The AM's container had not ended after " + AM_EXIT_WAIT.toSeconds() + " s; stopping anyway.");
    } catch (IOException | org.apache.hadoop.yarn.exceptions.YarnException e) {
      // The summary is printed; the wait only spares the next run's AM its start.
      out.println("Could not ask the ResourceManager whether the AM ended (" + e + "); stopping the cluster.");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Each container's log file, by the file it holds, where the user can open it; at most a few executors. */
  private static void printLogs(EmbeddedCluster cluster, int nodes, String appId, PrintStream out) throws IOException {
    List<Path> am = new ArrayList<>();
    List<Path> executors = new ArrayList<>();
    for (int i = 0; i < nodes; i++) {
      Path dir = cluster.nodeManagerLogDir(i).resolve(appId);
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try (var containers = Files.list(dir)) {
        for (Path c : containers.sorted().toList()) {
          // A JVM that never got as far as logging left only what the shell redirected: show that.
          if (Files.exists(c.resolve("AppMaster.stderr"))) {
            am.add(c.resolve(Files.exists(c.resolve("am.log")) ? "am.log" : "AppMaster.stderr"));
          } else if (Files.exists(c.resolve("stderr"))) {
            executors.add(c.resolve(Files.exists(c.resolve("executor.log")) ? "executor.log" : "stderr"));
          }
        }
      }
    }
    String label = "  AM log";
    for (Path p : am) {
      out.printf("%-17s %s%n", label, quote(p.toString()));
      label = "";
    }
    label = "  executor logs";
    for (Path p : executors.subList(0, Math.min(executors.size(), SHOWN_EXECUTOR_LOGS))) {
      out.printf("%-17s %s%n", label, quote(p.toString()));
      label = "";
    }
    if (executors.size() > SHOWN_EXECUTOR_LOGS) {
      out.printf("%-17s (and %d more beside them; each container's stderr and AppMaster.stderr hold what the JVM"
          + " printed itself)%n", "", executors.size() - SHOWN_EXECUTOR_LOGS);
    }
  }

  /** A path as one shell word, so that a copied line works. */
  static String quote(String word) {
    return word.chars().allMatch(c -> Character.isLetterOrDigit(c) && c < 128 || "_-./:=,@%+".indexOf(c) >= 0) ? word
        : "'" + word.replace("'", "'\\''") + "'";
  }

  /** The client: a dry run without a cluster (its output but errors dropped), or the submission to it. */
  private static Process startClient(RunArgs args, EmbeddedCluster cluster, List<String> hadoopClasspath,
      boolean dryRun) throws IOException {
    List<String> cp = new ArrayList<>();
    if (cluster != null) {
      cp.add(cluster.confDir().toString());
    }
    cp.add(args.appJar().toString());
    cp.addAll(hadoopClasspath);
    List<String> cmd = new ArrayList<>(List.of(args.java(), "-Xmx512m",
        "-Delasticam.terminal=" + (System.console() != null),
        "-Dlog4j.configuration=elasticam-client-log4j.properties",
        "-Delasticam.command=" + args.command(), "-Delasticam.client.embedded=true",
        "-cp", String.join(java.io.File.pathSeparator, cp), CLIENT_MAIN, "submit"));
    if (dryRun) {
      cmd.add("--dry-run");
    }
    if (args.shuffleJar().isPresent()) {
      // The cluster has the service, so applications use it unless the user's own --conf says otherwise.
      cmd.addAll(List.of("--conf", "elasticam.shuffle.service.enabled=true"));
    }
    // Each run is a new cluster: executors find the archive made by an earlier run only in a directory they share.
    cmd.addAll(List.of("--conf", "elasticam.executor.startupArchive.dir=" + args.workDir().resolve("startup-archives")));
    cmd.addAll(args.clientArgs());
    return new ProcessBuilder(cmd).redirectErrorStream(false).redirectError(ProcessBuilder.Redirect.INHERIT)
        .redirectOutput(dryRun ? ProcessBuilder.Redirect.DISCARD : ProcessBuilder.Redirect.PIPE)
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
