package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The runtime end to end on a real cluster: client, AM, launcher, executor processes, driver. */
@Timeout(240)
class RuntimeIT {

  private static ItCluster it;

  @BeforeAll
  static void start() throws Exception {
    it = ItCluster.start("runtime", s -> s);
  }

  @AfterAll
  static void stop() {
    if (it != null) {
      it.close();
    }
  }

  @Test
  void aSleepJobRunsOnItsStaticExecutorsAndCleansUp() throws Exception {
    ItCluster.ClientRun run = it.client("submit", "sleep", "--stages", "2", "--tasks", "6", "--task-ms", "200",
        "--conf", "elasticam.executor.instances=3");
    assertEquals(0, run.exitCode(), run.out() + run.err());
    ApplicationId id = run.appId();
    List<JsonNode> events = it.events(id);
    assertEquals(3, ItCluster.ofType(events, "executor_registered").size());
    assertEquals(12, ItCluster.ofType(events, "task_end").stream()
        .filter(e -> e.path("status").asText().equals("SUCCESS")).count());
    JsonNode end = ItCluster.ofType(events, "app_end").get(0);
    assertEquals("SUCCEEDED", end.path("final_status").asText());
    assertTrue(end.path("executor_seconds").asDouble() > 0);
    ApplicationReport r = it.report(id);
    assertEquals(FinalApplicationStatus.SUCCEEDED, r.getFinalApplicationStatus());
    assertEquals(1.0f, r.getProgress(), 0.001f, "the AM's progress reached 1.0");
    assertFalse(FileSystem.get(it.conf()).exists(it.stagingDir(id)), "the staging dir is removed");
    assertTrue(run.out().contains("tasks           12 succeeded"), run.out());
    assertTrue(run.out().contains("report          yarn jar " + it.appJar + " history " + it.eventLog(id)), run.out());
    assertFalse(run.out().contains("yarn logs"), "only a failed run points at the logs");
  }

  @Test
  void aTaskThatAlwaysFailsFailsTheJobWithItsError() throws Exception {
    ItCluster.ClientRun run = it.client("submit", "sleep", "--stages", "1", "--tasks", "2", "--task-ms", "10",
        "--fail-rate", "1", "--conf", "elasticam.task.maxFailures=2", "--conf", "elasticam.executor.instances=1");
    assertEquals(1, run.exitCode(), run.out() + run.err());
    assertTrue(run.out().contains("failed 2 times"), run.out());
    assertTrue(run.out().contains("failed at random (failRate 1.0)"), run.out());
    assertTrue(run.out().contains("logs: yarn logs -applicationId " + run.appId()), run.out());
    ApplicationReport r = it.report(run.appId());
    assertEquals(FinalApplicationStatus.FAILED, r.getFinalApplicationStatus());
    List<JsonNode> events = it.events(run.appId());
    JsonNode end = ItCluster.ofType(events, "app_end").get(0);
    assertEquals("FAILED", end.path("final_status").asText());
    long failedAttempts = ItCluster.ofType(events, "task_end").stream()
        .filter(e -> e.path("status").asText().equals("FAILED")).count();
    long firstStart = ItCluster.ofType(events, "task_start").get(0).path("ts").asLong();
    double failedS = Figures.seconds(firstStart, end.path("ts").asLong());
    Figures.record("RuntimeIT.aTaskThatAlwaysFailsFailsTheJobWithItsError", "default", String.format(
        "%d failed attempt(s), the job FAILED %.1f s after the first task started, with the task's error",
        failedAttempts, failedS), "failed_attempts", failedAttempts, "failed_s", failedS);
  }

  /** A one-stage sleep job submitted with --detach; its id once the client returned. */
  private static ApplicationId detachedSleep(int tasks, int taskMs, int executors) {
    ItCluster.ClientRun run = it.client("submit", "--detach", "sleep", "--stages", "1", "--tasks",
        String.valueOf(tasks), "--task-ms", String.valueOf(taskMs), "--conf", "elasticam.executor.instances=" + executors);
    assertEquals(0, run.exitCode(), run.out() + run.err());
    return run.appId();
  }

  @Test
  void theKillCommandRemovesTheStagingDirectoryTheKilledAmLeft() throws Exception {
    ApplicationId id = detachedSleep(2, 60_000, 1);
    it.awaitEvents(id, "am_registered", 1, Duration.ofSeconds(60));
    FileSystem fs = FileSystem.get(it.conf());
    assertTrue(fs.exists(it.stagingDir(id)), "staged while it runs");
    ItCluster.ClientRun kill = it.client("kill", id.toString());
    assertEquals(0, kill.exitCode(), kill.out() + kill.err());
    assertTrue(kill.out().contains("killed " + id), kill.out());
    assertFalse(fs.exists(it.stagingDir(id)), "the kill removed what the killed AM could not");
  }

  @Test
  void anExecutorKilledMidJobIsReplacedAndItsTasksRerun() throws Exception {
    ApplicationId id = detachedSleep(4, 3_000, 2);
    JsonNode victim = it.awaitEvents(id, "executor_registered", 2, Duration.ofSeconds(60)).get(0);
    Thread.sleep(1000);
    long pid = victim.path("pid").asLong();
    long killedAt = System.currentTimeMillis();
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    ApplicationReport r = it.waitForEnd(id, Duration.ofSeconds(120));
    assertEquals(FinalApplicationStatus.SUCCEEDED, r.getFinalApplicationStatus(), r.getDiagnostics());
    List<JsonNode> events = it.events(id);
    JsonNode removed = ItCluster.ofType(events, "executor_removed").stream()
        .filter(e -> e.path("executor_id").asText().equals(victim.path("executor_id").asText()))
        .findFirst().orElseThrow(() -> new AssertionError("no executor_removed for the killed executor"));
    assertTrue(removed.path("counted_as_failure").asBoolean(), removed.toString());
    assertEquals(137, removed.path("exit_status").asInt(), "the exit of a kill -9 (128 + SIGKILL): " + removed);
    assertTrue(ItCluster.ofType(events, "executor_registered").size() >= 3, "a replacement registered");
    String victimId = victim.path("executor_id").asText();
    List<JsonNode> interrupted = ItCluster.ofType(events, "task_start").stream()
        .filter(e -> e.path("executor_id").asText().equals(victimId)).filter(start -> ItCluster.ofType(events,
            "task_end").stream().noneMatch(end -> sameAttempt(start, end) && end.path("status").asText()
            .equals("SUCCESS"))).toList();
    assertFalse(interrupted.isEmpty(), "the killed executor was running a task");
    for (JsonNode t : interrupted) {
      assertTrue(ItCluster.ofType(events, "task_end").stream().anyMatch(e -> e.path("task").asInt()
          == t.path("task").asInt() && e.path("attempt").asInt() > t.path("attempt").asInt()
          && !e.path("executor_id").asText().equals(victimId) && e.path("status").asText().equals("SUCCESS")),
          "task " + t.path("task").asInt() + " of the killed executor ran again on another one");
    }
    double exitS = Figures.seconds(killedAt, removed.path("ts").asLong());
    double replacedS = Figures.seconds(killedAt, ItCluster.ofType(events, "executor_registered").stream()
        .mapToLong(e -> e.path("ts").asLong()).filter(ts -> ts > killedAt).min().orElseThrow());
    double doneAgainS = Figures.seconds(killedAt, ItCluster.ofType(events, "task_end").stream()
        .filter(e -> e.path("attempt").asInt() > 0).mapToLong(e -> e.path("ts").asLong()).max().orElseThrow());
    Figures.record("RuntimeIT.anExecutorKilledMidJob", "default", String.format("kill → exit 137 reported %.1f s;"
        + " replacement registered %.1f s; %d task(s) done again %.1f s after the kill", exitS, replacedS,
        interrupted.size(), doneAgainS), "exit_reported_s", exitS, "replacement_registered_s", replacedS,
        "tasks_rerun", interrupted.size(), "done_again_s", doneAgainS);
  }

  private static boolean sameAttempt(JsonNode a, JsonNode b) {
    return a.path("stage_id").asInt() == b.path("stage_id").asInt() && a.path("task").asInt() == b.path("task").asInt()
        && a.path("attempt").asInt() == b.path("attempt").asInt();
  }

  @Test
  void aUserJobFromItsOwnJarRuns() throws Exception {
    java.nio.file.Path jar = UserJobJar.build(java.nio.file.Path.of("target", "user-job"));
    ItCluster.ClientRun run = it.client("submit", "--conf", "elasticam.executor.instances=1", "--jar", jar.toString(),
        "--class", "it.user.HelloJob", "3");
    assertEquals(0, run.exitCode(), run.out() + run.err());
    List<JsonNode> tasks = ItCluster.ofType(it.events(run.appId()), "task_end");
    assertEquals(3 + 1, tasks.size(), "3 tasks in stage 0, 1 in stage 1");
  }
}
