package org.elasticam.launcher.yarn;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.yarn.api.records.LocalResource;

/**
 * Everything every executor's container launch context shares.
 *
 * @param driverHost where executors reach the driver's control plane
 * @param heapMb the executor JVM's -Xmx (executor memory, without the overhead)
 * @param localResources the app jar and the user jar, localized from the staging dir
 * @param applicationClasspath the cluster's yarn.application.classpath entries, after our jars
 * @param tokens the application's credentials without the AMRMToken, serialized
 * @param serviceData per aux-service data for the NodeManager (the shuffle service's secret)
 * @param userJar the user jar's link name among the local resources, if the job has one
 * @param shuffleService the NodeManagers' shuffle service executors register with; empty when
 *     executors serve their own shuffle output
 * @param readLocalShuffleDirectly executors read blocks on their own node from the files
 * @param shuffleClientConf the {@code elasticam.shuffle.client.*} settings executors fetch with
 * @param driverEndpointFile where each AM attempt publishes its control plane (a qualified URI);
 *     set when the application may have another attempt, so executors outlive an AM restart
 * @param reregisterTimeout how long an executor that lost the driver looks for a new AM
 * @param controlPlaneTls the AM's control plane serves TLS
 * @param okHttpControlPlane executors dial a plaintext control plane with gRPC's OkHttp transport
 * @param environment the user's variables for executors ({@code elasticam.executorEnv.*}), taken
 *     literally; without {@code JAVA_HOME} among them executors run on the node's own Java
 * @param jvm the user's JVM options, classpath and library path for executors
 * @param startupArchive where executors find and leave the node's start-up archive; empty: off
 * @param startupClassPathJar our jar's name in the container's directory, run as the agent that
 *     holds the cluster's jars back until the executor registered; empty: the whole classpath from
 *     the start
 */
public record ExecutorLaunchSpec(
    String driverHost,
    int driverPort,
    String appId,
    int cores,
    int taskCpus,
    long heapMb,
    Duration heartbeatInterval,
    Duration heartbeatTimeout,
    Map<String, LocalResource> localResources,
    List<String> applicationClasspath,
    ByteBuffer tokens,
    Map<String, ByteBuffer> serviceData,
    Optional<String> userJar,
    Optional<String> shuffleService,
    boolean readLocalShuffleDirectly,
    Map<String, String> shuffleClientConf,
    Optional<String> driverEndpointFile,
    Duration reregisterTimeout,
    boolean controlPlaneTls,
    boolean okHttpControlPlane,
    Map<String, String> environment,
    JvmSettings jvm,
    Optional<StartupArchive> startupArchive,
    Optional<String> startupClassPathJar) {

  public static final String EXECUTOR_MAIN = "org.elasticam.executor.ExecutorMain";
  /** The log4j configuration inside the app jar that containers log with. */
  public static final String CONTAINER_LOG4J = "elasticam-container-log4j.properties";
  /**
   * What sets up log4j from that file in the containers: the levels from the file, the appenders in
   * code, without log4j's bean introspection and Calendar dates (about 35 ms of each container's
   * start-up CPU).
   */
  public static final String CONTAINER_LOG4J_CONFIGURATOR = "org.elasticam.executor.logging.ContainerLogConfigurator";
  /** The oldest Java the AM and executors run on; a container's launch command checks it first. */
  public static final int MIN_JAVA = 17;
  /**
   * HotSpot's two JIT compilers later than their defaults: three times as hot. The optimising
   * compiler (C2, tier 4; defaults 5,000 calls, 15,000 calls and loop iterations, 40,000 loop
   * iterations for on-stack replacement) and the profiling C1 compiles that come before it (tier 3;
   * 200 calls, at least 100 with loops, 2,000 calls and loop iterations, 60,000 loop iterations). An
   * executor's start-up code (class loading, jar and configuration reading, the control plane's set-up)
   * runs hot for a few hundred milliseconds and never again: C2 compiled about a hundred of its
   * methods, 0.27 CPU-seconds per executor, and C1 most of a thousand, while executors starting
   * together share the node's CPU. A task's code that runs for more than moments passes the higher
   * marks within milliseconds, so the tasks' steady state is compiled as before. Measured:
   * BENCHMARKS.md, issue 26, "The optimising compiler three times as hot" and "The profiling
   * compiles three times as hot too". The AM starts with them too ("The AM's compilers three times
   * as hot"). The user's options come after these and override them.
   */
  public static final List<String> START_COMPILER_OPTIONS = List.of(
      "-XX:Tier3InvocationThreshold=600", "-XX:Tier3MinInvocationThreshold=300",
      "-XX:Tier3CompileThreshold=6000", "-XX:Tier3BackEdgeThreshold=180000",
      "-XX:Tier4InvocationThreshold=15000", "-XX:Tier4CompileThreshold=45000",
      "-XX:Tier4BackEdgeThreshold=120000");
  /** The key that points executors at another Java home than the node's. */
  public static final String EXECUTOR_JAVA_HOME_KEY = "elasticam.executorEnv.JAVA_HOME";

  public ExecutorLaunchSpec {
    localResources = Map.copyOf(localResources);
    applicationClasspath = List.copyOf(applicationClasspath);
    serviceData = Map.copyOf(serviceData);
    shuffleClientConf = new java.util.TreeMap<>(shuffleClientConf);
    environment = Map.copyOf(environment);
  }

  /** The same executors, launched with newer tokens (an AM with a keytab renewed them). */
  public ExecutorLaunchSpec withTokens(ByteBuffer newTokens) {
    return new ExecutorLaunchSpec(driverHost, driverPort, appId, cores, taskCpus, heapMb, heartbeatInterval,
        heartbeatTimeout, localResources, applicationClasspath, newTokens, serviceData, userJar, shuffleService,
        readLocalShuffleDirectly, shuffleClientConf, driverEndpointFile, reregisterTimeout, controlPlaneTls,
        okHttpControlPlane, environment, jvm, startupArchive, startupClassPathJar);
  }
}
