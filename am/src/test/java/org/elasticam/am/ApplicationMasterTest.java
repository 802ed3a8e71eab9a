package org.elasticam.am;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.ApplicationMasterProtocol;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateRequest;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterRequest;
import org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterResponse;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterRequest;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterResponse;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.elasticam.allocator.model.ExecutorId;
import org.elasticam.am.conf.HadoopConfigSource;
import org.elasticam.am.job.JobSpec;
import org.elasticam.executor.ExecutorArgs;
import org.elasticam.executor.ExecutorBackend;
import org.elasticam.launcher.ExecutorLauncher;
import org.elasticam.launcher.yarn.ExecutorLaunchSpec;
import org.elasticam.report.RunHistory;
import org.elasticam.rpc.AppSecretAuth;
import org.elasticam.testkit.yarn.FakeAmrmClient;
import org.elasticam.testkit.yarn.FakeResourceManager;
import org.elasticam.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole ApplicationMaster, from its container's environment to its unregistration, against
 * the stateful fake ResourceManager (behind a real AMRMClient) and executors that run in this JVM
 * but speak the real control plane: what the AM asks for, what it launches, how the job runs, and
 * how it ends (final status, exit code, event log, staging directory).
 */
class ApplicationMasterTest {

  private static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
  private static final ApplicationAttemptId ATTEMPT =
      ApplicationAttemptId.newInstance(ApplicationId.newInstance(1_700_000_000_000L, 7), 1);

  @TempDir
  Path dir;

  private final FakeResourceManager rm = new FakeResourceManager().addNode("127.0.0.1", "/default-rack", 64 * 1024)
      .autoSchedule(true);
  private final ExecutorService executors = Executors.newCachedThreadPool();
  private final List<Integer> executorExits = new CopyOnWriteArrayList<>();
  /** How many executors had stopped when the AM first released containers; -1 before it did. */
  private volatile int stoppedAtFirstRelease = -1;
  private Path staging;

  @BeforeEach
  void staging() throws Exception {
    staging = Files.createDirectories(dir.resolve("staging"));
    Files.writeString(staging.resolve(AmFiles.APP_JAR), "the application's jar");
  }

  @AfterEach
  void stop() {
    executors.shutdownNow();
  }

  @Test
  void aStaticJobRunsOnTheExecutorsItLaunchesAndEndsRegisteredAsSucceeded() throws Exception {
    int code = run("sleep", "--stages", "2", "--tasks", "4", "--task-ms", "20");

    assertEquals(AmExitCodes.SUCCEEDED, code);
    assertEquals(FinalApplicationStatus.SUCCEEDED, rm.finalStatus());
    assertTrue(rm.finalDiagnostics().contains("all 8 tasks of 2 stages succeeded"), rm.finalDiagnostics());
    RunHistory h = history();
    assertEquals("SUCCEEDED", h.finalStatus());
    assertEquals(8, h.tasks().stream().filter(t -> t.status().equals("SUCCESS")).count());
    assertEquals(2, h.launched().size(), "elasticam.executor.instances executors, launched once each");
    assertEquals(java.util.Set.of(), h.beyondSchema());
    assertEquals(List.of(), rm.liveContainers(), "every container given back before unregistering");
    assertFalse(Files.exists(staging), "the staging directory is removed at the end");
    assertEquals(2, executorExits.size(), "both executors were told to stop: " + executorExits);
    assertEquals(2, stoppedAtFirstRelease, "the executors stopped (their tasks cleaned up) before their containers"
        + " were released, which the NodeManager would kill at once");
  }

  @Test
  void aJobThatCannotBePlannedEndsFailedWithWhyAndLaunchesNothing() throws Exception {
    int code = run("wordcount", "--input", dir.resolve("no-such-input").toString(), "--output",
        dir.resolve("out").toString());

    assertEquals(AmExitCodes.JOB_FAILED, code);
    assertEquals(FinalApplicationStatus.FAILED, rm.finalStatus());
    assertTrue(rm.finalDiagnostics().startsWith("The job could not be planned"), rm.finalDiagnostics());
    assertEquals(List.of(), rm.liveContainers());
    assertEquals("FAILED", history().finalStatus());
    assertEquals(List.of(), executorExits);
  }

  /** Runs the AM to its end as the container's user would, with the application's secret in its credentials. */
  private int run(String... job) throws Exception {
    Configuration conf = new Configuration(false);
    conf.set("fs.defaultFS", "file:///");
    conf.set("elasticam.eventLog.dir", dir.resolve("events").toString());
    conf.set("elasticam.executor.instances", "2");
    conf.set("elasticam.executor.cores", "2");
    conf.set("elasticam.dynamicAllocation.enabled", "false");
    conf.set("elasticam.shuffle.service.enabled", "false");
    conf.set("elasticam.executor.startupArchive.enabled", "false");
    conf.set("elasticam.yarn.heartbeat.interval", "100ms");
    AmEnvironment env = new AmEnvironment(ATTEMPT, "127.0.0.1", "tester", "/proxy/" + ATTEMPT.getApplicationId(),
        staging.toString(), null, null);
    UserGroupInformation user = UserGroupInformation.createRemoteUser("tester");
    Credentials creds = new Credentials();
    creds.addSecretKey(new Text(AppSecretAuth.CREDENTIALS_KEY), SECRET);
    user.addCredentials(creds);
    ApplicationMaster am = new ApplicationMaster(conf, new org.elasticam.conf.ElasticConf(new HadoopConfigSource(conf)),
        JobSpec.parse(List.of(job)), env, new TestClients(), Clock.system());
    return user.doAs((PrivilegedExceptionAction<Integer>) am::run);
  }

  private RunHistory history() throws Exception {
    try (BufferedReader r = Files.newBufferedReader(dir.resolve("events").resolve(ATTEMPT.getApplicationId() + ".jsonl"))) {
      return RunHistory.read(r);
    }
  }

  /** The fake ResourceManager, noting how many executors had stopped when the first release came. */
  private final class RecordingResourceManager implements ApplicationMasterProtocol, java.io.Closeable {
    @Override
    public RegisterApplicationMasterResponse registerApplicationMaster(RegisterApplicationMasterRequest r)
        throws YarnException, java.io.IOException {
      return rm.registerApplicationMaster(r);
    }

    @Override
    public FinishApplicationMasterResponse finishApplicationMaster(FinishApplicationMasterRequest r)
        throws YarnException, java.io.IOException {
      return rm.finishApplicationMaster(r);
    }

    @Override
    public AllocateResponse allocate(AllocateRequest r) throws YarnException, java.io.IOException {
      if (!r.getReleaseList().isEmpty() && stoppedAtFirstRelease < 0) {
        stoppedAtFirstRelease = executorExits.size();
      }
      return rm.allocate(r);
    }

    @Override
    public void close() {}
  }

  /** The fake ResourceManager, one live node, and a launcher that starts each executor on a thread here. */
  private final class TestClients implements AmClients {
    @Override
    public AMRMClient<ContainerRequest> resourceManager() {
      return FakeAmrmClient.unstarted(new RecordingResourceManager());
    }

    @Override
    public ExecutorLauncher launcher(ExecutorLaunchSpec spec, int threads) {
      return new ExecutorLauncher() {
        @Override
        public void launch(ExecutorId executor, Container container, Callback callback) {
          callback.started(container, Map.<String, ByteBuffer>of());
          ExecutorArgs args = ExecutorArgs.parse(new String[] {"--driver", spec.driverHost() + ":" + spec.driverPort(),
              "--executor-id", executor.toString(), "--app-id", spec.appId(), "--cores", "2", "--heartbeat-ms", "200",
              "--heartbeat-timeout-ms", "10000"});
          executors.execute(() -> {
            try {
              executorExits.add(new ExecutorBackend(args, "127.0.0.1", container.getId().toString(), SECRET,
                  Clock.system(), dir.resolve("executor-" + executor), null).run());
            } catch (Exception e) {
              executorExits.add(-1);
            }
          });
        }

        @Override
        public void close() {}
      };
    }

    @Override
    public Nodes nodes(Optional<UserGroupInformation> rmUser) {
      return new Nodes() {
        @Override
        public List<String> liveHosts() {
          return List.of("127.0.0.1");
        }

        @Override
        public void close() {}
      };
    }
  }
}
