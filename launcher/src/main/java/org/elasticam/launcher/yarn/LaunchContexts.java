package org.elasticam.launcher.yarn;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.elasticam.allocator.exit.ExitStatus;
import org.elasticam.allocator.model.ExecutorId;

/** Builds the launch context of one executor's container from the shared spec. */
public final class LaunchContexts {

  private LaunchContexts() {}

  /**
   * Every buffer is a duplicate: the NodeManager client serializes contexts on several threads at
   * once and moves a buffer's position while it copies, so a buffer shared by two contexts can
   * reach a NodeManager empty.
   */
  public static ContainerLaunchContext executor(ExecutorLaunchSpec spec, ExecutorId id) {
    Map<String, ByteBuffer> serviceData = new HashMap<>();
    spec.serviceData().forEach((service, data) -> serviceData.put(service, data.duplicate()));
    return ContainerLaunchContext.newInstance(spec.localResources(), environment(spec), List.of(command(spec, id)),
        serviceData.isEmpty() ? null : serviceData, spec.tokens() == null ? null : spec.tokens().duplicate(), null);
  }

  /**
   * CLASSPATH: the container's working directory (our jars are localized there) first, then the
   * cluster's Hadoop classpath, then the user's. No JAVA_HOME of ours: the AM's Java home need not
   * exist on another node, so executors get the node's (the NodeManager passes its own on, as
   * JAVA_HOME is in yarn.nodemanager.env-whitelist by default) unless the user names one.
   *
   * <p>With the start-up classpath, that whole classpath goes to {@link org.elasticam.conf.StartupClassPathEnv#TASK_CLASSPATH}
   * and the JVM's CLASSPATH keeps only what is not a jar: the working directory, our jars in it, and
   * the other directories (the cluster's configuration), which the agent cannot add later.
   */
  static Map<String, String> environment(ExecutorLaunchSpec spec) {
    Map<String, String> env = new HashMap<>();
    spec.environment().forEach((k, v) -> env.put(k, ContainerCommand.literalEnvValue(v)));
    List<String> cp = new ArrayList<>();
    cp.add(Environment.PWD.$$());
    cp.add(Environment.PWD.$$() + "/*");
    cp.addAll(spec.applicationClasspath());
    String own = spec.environment().get(Environment.CLASSPATH.name());
    if (own != null) {
      cp.add(ContainerCommand.literalEnvValue(own));
    }
    spec.jvm().addToEnvironment(env, cp, ApplicationConstants.CLASS_PATH_SEPARATOR);
    if (spec.startupClassPathJar().isPresent()) {
      String whole = env.get(Environment.CLASSPATH.name());
      env.put(org.elasticam.conf.StartupClassPathEnv.TASK_CLASSPATH, whole);
      List<String> atStart = new ArrayList<>(List.of(Environment.PWD.$$(), Environment.PWD.$$() + "/*"));
      for (String entry : whole.split(java.util.regex.Pattern.quote(ApplicationConstants.CLASS_PATH_SEPARATOR)
          + "|:")) {
        if (!entry.isEmpty() && !entry.endsWith("*") && !entry.toLowerCase(java.util.Locale.ROOT).endsWith(".jar")
            && !atStart.contains(entry)) {
          atStart.add(entry);
        }
      }
      env.put(Environment.CLASSPATH.name(), String.join(ApplicationConstants.CLASS_PATH_SEPARATOR, atStart));
    }
    return env;
  }

  static String command(ExecutorLaunchSpec spec, ExecutorId id) {
    ContainerCommand c = new ContainerCommand()
        .requireJava(ExecutorLaunchSpec.MIN_JAVA, ExitStatus.JAVA_TOO_OLD, "an executor container",
            ExecutorLaunchSpec.EXECUTOR_JAVA_HOME_KEY, ApplicationConstants.LOG_DIR_EXPANSION_VAR + "/stderr");
    spec.startupArchive().ifPresent(c::startupArchive);
    c.shell("exec")
        .expanded(Environment.JAVA_HOME.$$() + "/bin/java")
        .arg("-Xmx" + spec.heapMb() + "m")
        .arg("-XX:+ExitOnOutOfMemoryError");
    if (spec.startupArchive().isPresent()) {
      c.startupArchiveOption();
    }
    spec.startupClassPathJar().ifPresent(jar -> c.expanded("-javaagent:" + Environment.PWD.$$() + "/" + jar));
    ExecutorLaunchSpec.START_COMPILER_OPTIONS.forEach(c::arg);
    // The user's options after ours, so that they can change what we chose (the GC, say), but not the heap.
    spec.jvm().addOptions(c, Map.of("APP_ID", spec.appId(), "EXECUTOR_ID", String.valueOf(id.value())));
    c.expanded("-Djava.io.tmpdir=" + Environment.PWD.$$() + "/tmp")
        .containerLogging("executor.log")
        .arg(ExecutorLaunchSpec.EXECUTOR_MAIN)
        .option("--driver", spec.driverHost() + ":" + spec.driverPort())
        .option("--executor-id", id.value())
        .option("--app-id", spec.appId())
        .option("--cores", spec.cores())
        .option("--task-cpus", spec.taskCpus())
        .option("--heartbeat-ms", spec.heartbeatInterval().toMillis())
        .option("--heartbeat-timeout-ms", spec.heartbeatTimeout().toMillis());
    spec.userJar().ifPresent(j -> c.option("--user-jar", j));
    spec.shuffleService().ifPresent(s -> c.option("--shuffle-service", s));
    c.option("--shuffle-local-read", spec.readLocalShuffleDirectly() ? "direct" : "fetch");
    if (!spec.shuffleClientConf().isEmpty()) {
      // Validated by the client at submission: sizes, durations and counts, no commas.
      List<String> kv = new ArrayList<>();
      spec.shuffleClientConf().forEach((k, v) -> kv.add(k + "=" + v));
      c.option("--shuffle-client-conf", String.join(",", kv));
    }
    spec.driverEndpointFile().ifPresent(f -> {
      c.option("--driver-endpoint-file", f);
      c.option("--reregister-timeout-ms", spec.reregisterTimeout().toMillis());
    });
    if (spec.controlPlaneTls()) {
      c.option("--control-plane", "tls");
    } else if (spec.okHttpControlPlane()) {
      c.option("--control-plane-transport", "okhttp");
    }
    return c.redirect("1>", ApplicationConstants.LOG_DIR_EXPANSION_VAR + "/stdout")
        .redirect("2>", ApplicationConstants.LOG_DIR_EXPANSION_VAR + "/stderr")
        .build();
  }
}
