package org.elasticam.am.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.am.events.EventLog;
import org.elasticam.am.job.BuiltInJobs;
import org.elasticam.engine.job.DagPlan;
import org.elasticam.am.job.JobSpec;
import org.elasticam.am.loop.AmLoop;
import org.elasticam.am.recovery.EndpointFile;
import org.elasticam.executor.ExecutorArgs;
import org.elasticam.executor.ExecutorBackend;
import org.elasticam.executor.ExitCodes;
import org.elasticam.rpc.AppSecretAuth;
import org.elasticam.rpc.journal.JournalStage;
import org.elasticam.rpc.journal.StreamProgress;
import org.elasticam.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.elasticam.engine.job.JobPlan;
import org.elasticam.engine.job.Outcome;
import org.elasticam.engine.job.DriverSettings;
import org.elasticam.engine.job.EnginePorts;
import org.elasticam.engine.job.JobEngine;
import org.elasticam.engine.job.JobPolicies;

/**
 * An AM restart as the control plane sees it, with real executor backends on loopback: the first
 * attempt's driver dies mid-job, a second attempt starts from its journal and publishes its
 * endpoint, and the executors find it, re-attach and finish the job without re-running the
 * completed stage. The allocator is faked; the AM process and YARN are the integration test's.
 */
@Timeout(90)
class AmRestartControlPlaneTest {

  private static final byte[] SECRET = "an application secret of 32 byte".getBytes(StandardCharsets.US_ASCII);

  @TempDir
  Path scratch;

  private final List<JournalStage> journal = new CopyOnWriteArrayList<>();
  private volatile StreamProgress stream = StreamProgress.getDefaultInstance();
  private final Recovery.Journal recorder = new Recovery.Journal() {
    @Override
    public void stageCompleted(JournalStage stage) {
      journal.add(stage);
    }

    @Override
    public void streamProgress(StreamProgress progress) {
      stream = progress;
    }
  };
  private final List<Attempt> attempts = new CopyOnWriteArrayList<>();

  /** Executors 1 and 2 run in containers c1 and c2, whichever attempt asks. */
  private final TwoLaunchedExecutors allocator = new TwoLaunchedExecutors();
  private final List<String> killed = allocator.killed;

  /** One attempt of the AM: its loop, its control plane, its driver and its event log. */
  private record Attempt(AmLoop loop, Server server, Driver driver, EventLog events, CompletableFuture<Outcome> outcome) {
    List<String> lines() throws Exception {
      return loop.call(events::retainedLines);
    }

    /** The job is over: the executors are told to stop, as the AM does at its end. */
    void end() throws Exception {
      loop.call(() -> {
        driver.engine().shutdownExecutors("the application is ending");
        return null;
      });
    }

    void kill() throws Exception {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      loop.close();
    }
  }

  private Attempt attempt(Recovery recovery) throws Exception {
    return attempt(recovery, new DagPlan(BuiltInJobs.sleepStages(JobSpec.parse(
        List.of("sleep", "--stages", "2", "--tasks", "4", "--task-ms", "1500")))), recorder);
  }

  private Attempt attempt(Recovery recovery, org.elasticam.engine.job.JobPlan plan) throws Exception {
    return attempt(recovery, plan, recorder);
  }

  private Attempt attempt(Recovery recovery, org.elasticam.engine.job.JobPlan plan, Recovery.Journal j)
      throws Exception {
    CompletableFuture<Outcome> outcome = new CompletableFuture<>();
    AmLoop loop = new AmLoop(outcome::completeExceptionally);
    EventLog events = EventLog.discarding(Clock.system());
    Driver driver = new Driver(new JobEngine(new DriverSettings("app_1", 2, 1, 2, Duration.ZERO,
        Duration.ofMillis(200), Duration.ofSeconds(10), Duration.ofSeconds(30), 0.0, Duration.ZERO,
        Duration.ofSeconds(1), DriverSettings.ExcludeOnFailure.OFF), plan, new TaskScheduler(2, Duration.ZERO,
        h -> null), new EnginePorts(loop, Clock.system(), allocator, events), JobPolicies.STATIC, outcome::complete));
    driver.recordTo(j);
    if (recovery != null) {
      driver.recover(recovery);
    }
    Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(ServerInterceptors.intercept(new DriverService(loop, driver),
            AppSecretAuth.interceptor(SECRET, Clock.system(), why -> { })))
        .build().start();
    loop.execute(driver.engine()::start);
    EndpointFile.publish(new Configuration(), scratch.toUri().toString(), "127.0.0.1", server.getPort());
    Attempt a = new Attempt(loop, server, driver, events, outcome);
    attempts.add(a);
    return a;
  }

  private CompletableFuture<Integer> executor(int port, int id) throws Exception {
    ExecutorArgs args = ExecutorArgs.parse(new String[] {"--driver", "127.0.0.1:" + port, "--executor-id",
        String.valueOf(id), "--app-id", "app_1", "--cores", "2", "--heartbeat-ms", "200",
        "--heartbeat-timeout-ms", "10000", "--driver-endpoint-file",
        EndpointFile.uri(new Configuration(), scratch.toUri().toString()), "--reregister-timeout-ms", "20000"});
    return CompletableFuture.supplyAsync(() -> {
      try {
        return new ExecutorBackend(args, "localhost", "c" + id, SECRET, Clock.system(), scratch.resolve("e" + id), null)
            .run();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
  }

  @AfterEach
  void stop() throws Exception {
    for (Attempt a : attempts) {
      a.kill();
    }
  }

  @Test
  void executorsOutliveTheFirstAttemptAndTheSecondSkipsTheCompletedStage() throws Exception {
    Attempt first = attempt(null);
    CompletableFuture<Integer> e1 = executor(first.server().getPort(), 1);
    CompletableFuture<Integer> e2 = executor(first.server().getPort(), 2);
    waitFor(() -> journal.stream().anyMatch(s -> s.getStageId() == 0), "stage 0 completes in the first attempt");
    waitFor(() -> first.driver().engine().tasksRunning() > 0, "stage 1 runs");
    first.kill();

    Attempt second = attempt(new Recovery(List.copyOf(journal), List.of(), Set.of("1", "2"), Duration.ofSeconds(20),
        StreamProgress.getDefaultInstance()));
    Outcome o = second.outcome().get(60, TimeUnit.SECONDS);
    assertEquals(Outcome.Status.SUCCEEDED, o.status(), o.diagnostics());
    List<String> lines = second.lines();
    assertTrue(lines.stream().noneMatch(l -> l.contains("\"task_start\"") && l.contains("\"stage_id\":0,")),
        "no task of the completed stage ran again:\n" + String.join("\n", lines));
    assertEquals(2, lines.stream().filter(l -> l.contains("\"executor_registered\"")
        && l.contains("\"reattached\":true")).count(), String.join("\n", lines));
    assertTrue(lines.stream().anyMatch(l -> l.contains("\"stage_completed\"") && l.contains("\"recovered\":true")));
    assertTrue(killed.isEmpty(), "no executor was released: " + killed);
    second.end();
    assertEquals(ExitCodes.OK, e1.get(20, TimeUnit.SECONDS));
    assertEquals(ExitCodes.OK, e2.get(20, TimeUnit.SECONDS));
  }

  @Test
  void theTasksOfARunningStageThatSucceededBeforeTheRestartDoNotRunAgain() throws Exception {
    Configuration conf = new Configuration();
    String staging = java.nio.file.Files.createDirectories(scratch.resolve("staging")).toUri().toString();
    org.elasticam.engine.job.JobPlan plan = new DagPlan(BuiltInJobs.sleepStages(JobSpec.parse(
        List.of("sleep", "--stages", "2", "--tasks", "8", "--task-ms", "1000"))));
    org.elasticam.am.recovery.RecoveryJournal j1 = org.elasticam.am.recovery.RecoveryJournal.start(conf, staging, 1, 3,
        List.of(), List.of(), List.of(), StreamProgress.getDefaultInstance(), () -> 0);
    Attempt first = attempt(null, plan, j1);
    CompletableFuture<Integer> e1 = executor(first.server().getPort(), 1);
    CompletableFuture<Integer> e2 = executor(first.server().getPort(), 2);
    // Two executors of two slots: stage 1's first four tasks succeed, then the AM dies.
    waitFor(() -> doneOnDisk(conf, staging, 1) >= 4, "four tasks of stage 1 done");
    first.kill();
    j1.close();
    org.elasticam.rpc.journal.AmJournal left = org.elasticam.am.recovery.RecoveryJournal.read(conf, staging)
        .orElseThrow();
    int doneBefore = left.getRunningStages(0).getDoneTasksCount();

    Attempt second = attempt(new Recovery(left.getCompletedStagesList(), left.getRunningStagesList(),
        Set.of("1", "2"), Duration.ofSeconds(20), left.getStream()), plan(), recorder);
    Outcome o = second.outcome().get(60, TimeUnit.SECONDS);
    assertEquals(Outcome.Status.SUCCEEDED, o.status(), o.diagnostics());
    long rerun = second.lines().stream().filter(l -> l.contains("\"task_start\"") && l.contains("\"stage_id\":1,"))
        .count();
    assertEquals(8 - doneBefore, rerun, "only the tasks of stage 1 that had not succeeded ran:\n"
        + String.join("\n", second.lines()));
    assertEquals(16, second.driver().engine().tasksDone(), "progress counts the tasks done before");
    second.end();
    assertEquals(ExitCodes.OK, e1.get(20, TimeUnit.SECONDS));
    assertEquals(ExitCodes.OK, e2.get(20, TimeUnit.SECONDS));
  }

  /** Tasks of running stage {@code stageId} the journal on disk has as succeeded. */
  private static int doneOnDisk(Configuration conf, String staging, int stageId) {
    try {
      return org.elasticam.am.recovery.RecoveryJournal.read(conf, staging).map(j -> j.getRunningStagesList().stream()
          .filter(st -> st.getStageId() == stageId).mapToInt(st -> st.getDoneTasksCount()).sum()).orElse(0);
    } catch (java.io.IOException e) {
      return 0;
    }
  }

  private static org.elasticam.engine.job.JobPlan plan() {
    return new DagPlan(BuiltInJobs.sleepStages(JobSpec.parse(
        List.of("sleep", "--stages", "2", "--tasks", "8", "--task-ms", "1000"))));
  }

  @Test
  void aStreamGoesOnWithTheBatchAfterTheLastOneDone() throws Exception {
    JobSpec spec = JobSpec.parse("streaming", "--batch-ms", "300", "--batches", "12", "--rate", "const:20",
        "--work-per-record-us", "2000");
    Attempt first = attempt(null, BuiltInJobs.plan(spec, List.of("localhost"), null));
    CompletableFuture<Integer> e1 = executor(first.server().getPort(), 1);
    waitFor(() -> stream.getBatchesDone() >= 3, "three batches done in the first attempt");
    first.kill();
    StreamProgress before = stream;

    Attempt second = attempt(new Recovery(List.of(), List.of(), Set.of("1"), Duration.ofSeconds(20), before),
        BuiltInJobs.plan(spec, List.of("localhost"), null));
    Outcome o = second.outcome().get(60, TimeUnit.SECONDS);
    assertEquals(Outcome.Status.SUCCEEDED, o.status(), o.diagnostics());
    java.util.regex.Pattern batch = java.util.regex.Pattern.compile("\"event\":\"batch_completed\",\"batch\":(\\d+)");
    List<Integer> done = second.lines().stream().map(batch::matcher).filter(java.util.regex.Matcher::find)
        .map(m -> Integer.parseInt(m.group(1))).toList();
    List<Integer> expected = java.util.stream.IntStream.range(before.getBatchesDone(), 12).boxed().toList();
    assertEquals(expected, done, "the second attempt ran exactly the batches not done");
    assertEquals(12, stream.getBatchesDone());
    second.end();
    assertEquals(ExitCodes.OK, e1.get(20, TimeUnit.SECONDS));
  }

  @Test
  void aSurvivorThatNeverComesBackIsReleasedAfterTheReregisterTimeout() throws Exception {
    Attempt second = attempt(new Recovery(List.of(), List.of(), Set.of("2"), Duration.ofMillis(500),
        StreamProgress.getDefaultInstance()));
    CompletableFuture<Integer> e1 = executor(second.server().getPort(), 1);
    waitFor(() -> killed.stream().anyMatch(k -> k.startsWith("2: lost: it did not re-register")), "executor 2 released");
    Outcome o = second.outcome().get(60, TimeUnit.SECONDS);
    assertEquals(Outcome.Status.SUCCEEDED, o.status(), o.diagnostics());
    second.end();
    assertEquals(ExitCodes.OK, e1.get(20, TimeUnit.SECONDS));
  }

  @Test
  void withoutANewAttemptAnExecutorGivesUpAfterTheReregisterTimeout() throws Exception {
    Attempt only = attempt(null);
    ExecutorArgs args = ExecutorArgs.parse(new String[] {"--driver", "127.0.0.1:" + only.server().getPort(),
        "--executor-id", "1", "--app-id", "app_1", "--cores", "1", "--heartbeat-ms", "200",
        "--heartbeat-timeout-ms", "10000", "--driver-endpoint-file",
        EndpointFile.uri(new Configuration(), scratch.toUri().toString()), "--reregister-timeout-ms", "1500"});
    CompletableFuture<Integer> e1 = CompletableFuture.supplyAsync(() -> {
      try {
        return new ExecutorBackend(args, "localhost", "c1", SECRET, Clock.system(), scratch.resolve("e1"), null).run();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    waitFor(() -> only.driver().engine().tasksRunning() > 0, "a task runs");
    long t0 = System.nanoTime();
    only.kill();
    assertEquals(ExitCodes.DRIVER_LOST, e1.get(20, TimeUnit.SECONDS));
    assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(1500), "it looked for a new AM first");
  }

  private static void waitFor(BooleanSupplier ok, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!ok.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      Thread.sleep(20);
    }
  }
}
