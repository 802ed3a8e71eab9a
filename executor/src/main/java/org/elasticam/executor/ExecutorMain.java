package org.elasticam.executor;

import java.nio.file.Path;
import org.elasticam.conf.ElasticConf;
import org.elasticam.conf.StartupArchiveLayout;
import org.elasticam.executor.shuffle.ExecutorShuffle;
import org.elasticam.rpc.HadoopTls;
import org.elasticam.shuffle.client.ClientSettings;
import org.elasticam.startup.NodeStartupArchive;
import org.elasticam.time.Clock;

/**
 * The executor process's entry point, started by the launcher in each container. Its exit code
 * tells YARN, and so the AM, how it ended ({@link ExitCodes}).
 */
public final class ExecutorMain {

  private ExecutorMain() {}

  public static void main(String[] argv) {
    StartPhases phases = new StartPhases();
    phases.mark("main");
    ExecutorArgs args;
    try {
      args = ExecutorArgs.parse(argv);
    } catch (IllegalArgumentException e) {
      System.err.println("executor: " + e.getMessage());
      System.exit(ExitCodes.USAGE);
      return;
    }
    String host = env("NM_HOST");
    String container = env("CONTAINER_ID");
    int code;
    try {
      long t0 = System.nanoTime();
      byte[] secret = AppSecret.fromCredentials();
      org.slf4j.LoggerFactory.getLogger(ExecutorMain.class).info("Executor {} starting in {} on {}; JVM up {} ms,"
          + " credentials read in {} ms; classpath: {}", args.executorId(), container, host,
          java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime(), (System.nanoTime() - t0) / 1_000_000,
          StartupClassPath.describe());
      phases.mark("credentials read");
      NodeStartupArchive startupArchive = NodeStartupArchive.ofThisJvm(StartupArchiveLayout.Role.EXECUTOR);
      String who = "Executor " + args.executorId();
      startupArchive.logStart(who);
      phases.archive(startupArchive.state().eventName);
      Path scratch = Path.of(System.getProperty("java.io.tmpdir"), "elasticam-executor-" + args.executorId());
      try (ExecutorShuffle shuffle = ExecutorShuffle.start(args.appId(), String.valueOf(args.executorId()), host,
          secret, args.shuffleService(), args.readLocalShuffleDirectly(),
          ClientSettings.from(ElasticConf.of(args.shuffleClientConf())), System.getenv(), Clock.system())) {
        phases.mark("shuffle ready");
        ExecutorBackend backend = new ExecutorBackend(args, host, container, secret, Clock.system(), scratch, shuffle)
            .withStartPhases(phases)
            .onRegistered(() -> {
              completeClassPathInBackground();
              startupArchive.makeInBackground(who);
            });
        if (args.controlPlaneTls()) {
          StartupClassPath.complete(); // the trust store's settings come through Hadoop's Configuration
          backend.withControlPlaneTls(org.elasticam.rpc.ControlPlaneTls.client(
              HadoopTls.clientTrust(new org.apache.hadoop.conf.Configuration())));
        }
        code = backend.run();
      }
    } catch (Exception e) {
      System.err.println("executor " + args.executorId() + ": " + e);
      e.printStackTrace();
      code = ExitCodes.INTERNAL;
    }
    System.exit(code);
  }

  /**
   * The cluster's jars, added while the driver sends the first tasks; {@link TaskRunner#launch}
   * waits for them. A daemon: an executor told to stop at once does not wait for it.
   */
  private static void completeClassPathInBackground() {
    Thread t = new Thread(() -> {
      int added = StartupClassPath.complete();
      if (added > 0) {
        org.slf4j.LoggerFactory.getLogger(ExecutorMain.class).debug("Classpath completed: {}",
            StartupClassPath.describe());
      }
    }, "task-classpath");
    t.setDaemon(true);
    t.start();
  }

  private static String env(String name) {
    String v = System.getenv(name);
    if (v == null || v.isBlank()) {
      System.err.println("executor: environment variable " + name + " is not set; run me in a YARN container");
      System.exit(ExitCodes.USAGE);
    }
    return v;
  }
}
