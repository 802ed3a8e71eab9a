package org.elasticam.launcher.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.elasticam.allocator.model.ExecutorId;
import org.junit.jupiter.api.Test;

class LaunchContextsTest {

  private static ExecutorLaunchSpec spec(Optional<String> userJar, Map<String, ByteBuffer> serviceData) {
    return new ExecutorLaunchSpec("am-host", 4242, "application_1_0001", 2, 1, 1024, Duration.ofSeconds(3),
        Duration.ofSeconds(60), Map.of(), List.of("/opt/hadoop/*", "/opt/hadoop/lib/*"), null, serviceData, userJar,
        serviceData.isEmpty() ? Optional.empty() : Optional.of("elasticam_shuffle"), true, Map.of(),
        Optional.empty(), Duration.ofSeconds(60), false, true, Map.of(), JvmSettings.NONE, Optional.empty(),
        Optional.empty());
  }

  @Test
  void commandRunsTheExecutorMainWithItsArgumentsAndRedirectsOutput() {
    String cmd = LaunchContexts.command(spec(Optional.of("__user__.jar"), Map.of()), new ExecutorId(7));
    assertTrue(cmd.startsWith("{ j=\\\"\\$JAVA_HOME\\\"; "), "the node's Java is checked first: " + cmd);
    assertTrue(cmd.contains(" 2>>\\\"<LOG_DIR>/stderr\\\" 1>&2 && exec \\\"{{JAVA_HOME}}/bin/java\\\" -Xmx1024m"), cmd);
    assertTrue(cmd.contains(" org.elasticam.executor.ExecutorMain --driver am-host:4242 --executor-id 7"
        + " --app-id application_1_0001 --cores 2 --task-cpus 1 --heartbeat-ms 3000 --heartbeat-timeout-ms 60000"
        + " --user-jar __user__.jar --shuffle-local-read direct --control-plane-transport okhttp"
        + " 1>\\\"<LOG_DIR>/stdout\\\" 2>\\\"<LOG_DIR>/stderr\\\""), cmd);
  }

  @Test
  void environmentLeavesJavaHomeToTheNodeAndPutsOurJarsBeforeHadoops() {
    Map<String, String> env = LaunchContexts.environment(spec(Optional.empty(), Map.of()));
    assertNull(env.get("JAVA_HOME"), "the AM's own Java home need not exist on the executor's node");
    assertEquals("{{PWD}}<CPS>{{PWD}}/*<CPS>/opt/hadoop/*<CPS>/opt/hadoop/lib/*", env.get("CLASSPATH"));
  }

  @Test
  void serviceDataOnlyWhenThereIsSome() {
    ContainerLaunchContext none = LaunchContexts.executor(spec(Optional.empty(), Map.of()), new ExecutorId(1));
    assertTrue(none.getServiceData() == null || none.getServiceData().isEmpty());
    ContainerLaunchContext some = LaunchContexts.executor(
        spec(Optional.empty(), Map.of("elasticam_shuffle", ByteBuffer.wrap(new byte[] {1}))), new ExecutorId(1));
    assertEquals(1, some.getServiceData().size());
    assertNull(none.getTokens());
  }

  /**
   * The NodeManager client serializes each context on its own thread, moving the buffer's position
   * while it copies: two contexts sharing one buffer sent a NodeManager empty service data once
   * (the shuffle service then refused the application and the executor exited). Each context
   * must have buffers of its own.
   */
  @Test
  void eachContextHasItsOwnBuffersSoConcurrentLaunchesCannotEmptyThem() {
    byte[] secret = {1, 2, 3, 4, 5, 6, 7, 8};
    byte[] tokens = {9, 9, 9};
    ExecutorLaunchSpec base = spec(Optional.empty(), Map.of("elasticam_shuffle", ByteBuffer.wrap(secret)));
    ExecutorLaunchSpec spec = base.withTokens(ByteBuffer.wrap(tokens));
    ContainerLaunchContext first = LaunchContexts.executor(spec, new ExecutorId(1));
    ContainerLaunchContext second = LaunchContexts.executor(spec, new ExecutorId(2));
    // What a serializer part-way through the first context leaves behind.
    ByteBuffer firstData = first.getServiceData().get("elasticam_shuffle");
    firstData.position(firstData.limit());
    first.getTokens().position(first.getTokens().limit());
    assertEquals(secret.length, second.getServiceData().get("elasticam_shuffle").remaining());
    assertEquals(tokens.length, second.getTokens().remaining());
    assertEquals(secret.length, spec.serviceData().get("elasticam_shuffle").remaining(), "the spec's own buffer");
  }

  @Test
  void theStartupArchiveIsLookedForBeforeTheJvmStartsAndOnlyWhenTheApplicationHasOne() {
    ExecutorLaunchSpec base = spec(Optional.empty(), Map.of());
    assertTrue(!LaunchContexts.command(base, new ExecutorId(1)).contains("ELASTICAM_STARTUP_ARCHIVE"));
    ExecutorLaunchSpec with = new ExecutorLaunchSpec(base.driverHost(), base.driverPort(), base.appId(), base.cores(),
        base.taskCpus(), base.heapMb(), base.heartbeatInterval(), base.heartbeatTimeout(), base.localResources(),
        base.applicationClasspath(), null, base.serviceData(), base.userJar(), base.shuffleService(),
        base.readLocalShuffleDirectly(), base.shuffleClientConf(), base.driverEndpointFile(), base.reregisterTimeout(),
        false, base.okHttpControlPlane(), Map.of(), JvmSettings.NONE,
        Optional.of(new StartupArchive(Optional.empty(), "0123456789abcdef", "__elasticam__.jar")), Optional.empty());
    String cmd = LaunchContexts.command(with, new ExecutorId(1));
    assertTrue(cmd.indexOf("ELASTICAM_STARTUP_ARCHIVE") < cmd.indexOf("&& exec "), cmd);
    assertTrue(cmd.contains("-XX:+ExitOnOutOfMemoryError \\\"\\$s\\\" "), "the option the script chose: " + cmd);
  }

  @Test
  void withTheStartupClassPathTheJvmStartsWithoutTheClustersJarsAndTheAgentGetsThemAll() {
    ExecutorLaunchSpec base = spec(Optional.empty(), Map.of());
    ExecutorLaunchSpec with = new ExecutorLaunchSpec(base.driverHost(), base.driverPort(), base.appId(), base.cores(),
        base.taskCpus(), base.heapMb(), base.heartbeatInterval(), base.heartbeatTimeout(), base.localResources(),
        List.of("{{HADOOP_CONF_DIR}}", "{{HADOOP_COMMON_HOME}}/share/hadoop/common/*", "/opt/x/one.jar", "/opt/y/Two.JAR"),
        null, base.serviceData(), base.userJar(), base.shuffleService(), base.readLocalShuffleDirectly(),
        base.shuffleClientConf(), base.driverEndpointFile(), base.reregisterTimeout(), false,
        base.okHttpControlPlane(), Map.of("CLASSPATH", "/opt/user/conf:/opt/user/lib.jar"), JvmSettings.NONE,
        Optional.empty(), Optional.of("__elasticam__.jar"));
    Map<String, String> env = LaunchContexts.environment(with);
    assertEquals("{{PWD}}<CPS>{{PWD}}/*<CPS>{{HADOOP_CONF_DIR}}<CPS>{{HADOOP_COMMON_HOME}}/share/hadoop/common/*"
        + "<CPS>/opt/x/one.jar<CPS>/opt/y/Two.JAR<CPS>/opt/user/conf:/opt/user/lib.jar",
        env.get("ELASTICAM_TASK_CLASSPATH"), "the whole classpath, as it would have been");
    assertEquals("{{PWD}}<CPS>{{PWD}}/*<CPS>{{HADOOP_CONF_DIR}}<CPS>/opt/user/conf", env.get("CLASSPATH"),
        "our directory and jars, and the directories");
    String cmd = LaunchContexts.command(with, new ExecutorId(1));
    assertTrue(cmd.contains(" \\\"-javaagent:{{PWD}}/__elasticam__.jar\\\" "), cmd);
    assertTrue(cmd.indexOf("-javaagent") < cmd.indexOf("org.elasticam.executor.ExecutorMain"), cmd);

    Map<String, String> without = LaunchContexts.environment(base);
    assertNull(without.get("ELASTICAM_TASK_CLASSPATH"));
    assertTrue(!LaunchContexts.command(base, new ExecutorId(1)).contains("-javaagent"));
  }

  @Test
  void theShuffleServiceAndTheFetchSettingsReachTheExecutor() {
    ExecutorLaunchSpec base = spec(Optional.empty(), Map.of("elasticam_shuffle", ByteBuffer.allocate(4)));
    ExecutorLaunchSpec spec = new ExecutorLaunchSpec(base.driverHost(), base.driverPort(), base.appId(), base.cores(),
        base.taskCpus(), base.heapMb(), base.heartbeatInterval(), base.heartbeatTimeout(), base.localResources(),
        base.applicationClasspath(), null, base.serviceData(), Optional.empty(), Optional.of("elasticam_shuffle"), false,
        Map.of("elasticam.shuffle.client.maxRetries", "5", "elasticam.shuffle.client.maxBytesInFlight", "64m"),
        Optional.of("hdfs://nn:8020/user/u/.elasticam/staging/application_1_0001/am-endpoint"), Duration.ofSeconds(45),
        true, true, Map.of("JAVA_HOME", "/opt/jdk 17", "TZ", "UTC"),
        JvmSettings.of("-XX:+UseSerialGC '-Dgreeting=hello world' -Xlog:gc:file=<LOG_DIR>/gc-{{EXECUTOR_ID}}.log",
            "/opt/extra/lib/*:/opt/conf", "/opt/native"), Optional.empty(), Optional.empty());
    String cmd = LaunchContexts.command(spec, new ExecutorId(3));
    assertTrue(cmd.contains(" --shuffle-service elasticam_shuffle --shuffle-local-read fetch --shuffle-client-conf"
        + " elasticam.shuffle.client.maxBytesInFlight=64m,elasticam.shuffle.client.maxRetries=5 "), cmd);
    // With another AM attempt possible, the executor learns where the next one will say it is.
    assertTrue(cmd.contains(" --driver-endpoint-file hdfs://nn:8020/user/u/.elasticam/staging/application_1_0001/"
        + "am-endpoint --reregister-timeout-ms 45000 "), cmd);
    assertTrue(cmd.contains(" --control-plane tls 1>"), "the AM serves TLS, dialled with Netty: " + cmd);
    assertTrue(!cmd.contains("--control-plane-transport"), "OkHttp only for a plaintext control plane: " + cmd);
    Map<String, String> env = LaunchContexts.environment(spec);
    assertEquals("/opt/jdk 17", env.get("JAVA_HOME"), "the user's variables, taken literally");
    assertEquals("UTC", env.get("TZ"));
    assertTrue(env.get("CLASSPATH").startsWith("/opt/extra/lib/*:/opt/conf<CPS>{{PWD}}<CPS>"), env.get("CLASSPATH"));
    assertEquals("/opt/native:{{LD_LIBRARY_PATH}}", env.get("LD_LIBRARY_PATH"));
    assertTrue(cmd.contains(" -XX:+ExitOnOutOfMemoryError -XX:Tier3InvocationThreshold=600"
        + " -XX:Tier3MinInvocationThreshold=300 -XX:Tier3CompileThreshold=6000 -XX:Tier3BackEdgeThreshold=180000"
        + " -XX:Tier4InvocationThreshold=15000"
        + " -XX:Tier4CompileThreshold=45000 -XX:Tier4BackEdgeThreshold=120000 -XX:+UseSerialGC '-Dgreeting=hello world'"
        + " '-Xlog:gc:file='\\\"<LOG_DIR>\\\"'/gc-3.log' "), cmd);
    assertTrue(cmd.contains(" -Dlog4j.configuration=elasticam-container-log4j.properties"
        + " -Dlog4j.configuratorClass=org.elasticam.executor.logging.ContainerLogConfigurator"
        + " \\\"-Delasticam.log.dir=<LOG_DIR>\\\" -Delasticam.log.file=executor.log org.elasticam.executor.ExecutorMain "), cmd);
  }
}
