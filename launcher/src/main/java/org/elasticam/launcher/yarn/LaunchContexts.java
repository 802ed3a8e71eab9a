package org.elasticam.launcher.yarn;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.elasticam.allocator.model.ExecutorId;

/** Builds the launch context of one executor's container from the shared spec. */
public final class LaunchContexts {

  private LaunchContexts() {}

  public static ContainerLaunchContext executor(ExecutorLaunchSpec spec, ExecutorId id) {
    ContainerLaunchContext ctx = ContainerLaunchContext.newInstance(spec.localResources(), environment(spec),
        List.of(command(spec, id)), spec.serviceData().isEmpty() ? null : new HashMap<>(spec.serviceData()),
        spec.tokens() == null ? null : spec.tokens().duplicate(), null);
    return ctx;
  }

  /**
   * CLASSPATH: the container's working directory (our jars are localized there) first, then the
   * cluster's Hadoop classpath. JAVA_HOME is set explicitly: a NodeManager passes on its own only
   * when its process has one, and on some machines it does not.
   */
  static Map<String, String> environment(ExecutorLaunchSpec spec) {
    Map<String, String> env = new HashMap<>();
    List<String> cp = new ArrayList<>();
    cp.add(Environment.PWD.$$());
    cp.add(Environment.PWD.$$() + "/*");
    cp.addAll(spec.applicationClasspath());
    env.put(Environment.CLASSPATH.name(), String.join(ApplicationConstants.CLASS_PATH_SEPARATOR, cp));
    env.put(Environment.JAVA_HOME.name(), System.getProperty("java.home"));
    return env;
  }

  static String command(ExecutorLaunchSpec spec, ExecutorId id) {
    List<String> c = new ArrayList<>();
    c.add(Environment.JAVA_HOME.$$() + "/bin/java");
    c.add("-Xmx" + spec.heapMb() + "m");
    c.add("-XX:+ExitOnOutOfMemoryError");
    c.add("-Djava.io.tmpdir=" + Environment.PWD.$$() + "/tmp");
    c.add("-Dlog4j.configuration=" + ExecutorLaunchSpec.CONTAINER_LOG4J);
    c.add("-Delasticam.log.dir=" + ApplicationConstants.LOG_DIR_EXPANSION_VAR);
    c.add("-Delasticam.log.file=executor.log");
    c.add(ExecutorLaunchSpec.EXECUTOR_MAIN);
    c.add("--driver " + spec.driverHost() + ":" + spec.driverPort());
    c.add("--executor-id " + id.value());
    c.add("--app-id " + spec.appId());
    c.add("--cores " + spec.cores());
    c.add("--task-cpus " + spec.taskCpus());
    c.add("--heartbeat-ms " + spec.heartbeatInterval().toMillis());
    c.add("--heartbeat-timeout-ms " + spec.heartbeatTimeout().toMillis());
    spec.userJar().ifPresent(j -> c.add("--user-jar " + j));
    spec.shuffleService().ifPresent(s -> c.add("--shuffle-service " + s));
    c.add("--shuffle-local-read " + (spec.readLocalShuffleDirectly() ? "direct" : "fetch"));
    if (!spec.shuffleClientConf().isEmpty()) {
      // Validated by the client at submission: sizes, durations and counts, no spaces or commas.
      List<String> kv = new ArrayList<>();
      spec.shuffleClientConf().forEach((k, v) -> kv.add(k + "=" + v));
      c.add("--shuffle-client-conf " + String.join(",", kv));
    }
    spec.driverEndpointFile().ifPresent(f -> {
      // A qualified Hadoop path: no spaces (the client's staging dir).
      c.add("--driver-endpoint-file " + f);
      c.add("--reregister-timeout-ms " + spec.reregisterTimeout().toMillis());
    });
    if (spec.controlPlaneTls()) {
      c.add("--control-plane tls");
    }
    c.add("1>" + ApplicationConstants.LOG_DIR_EXPANSION_VAR + "/stdout");
    c.add("2>" + ApplicationConstants.LOG_DIR_EXPANSION_VAR + "/stderr");
    return String.join(" ", c);
  }
}
