package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Executors and AMs start from their node's start-up archives, in their default place, as a
 * NodeManager runs them: the first application's executors and AM start without one and make
 * them; the next application's start from them; an archive the JVM cannot use is logged, the
 * executors start without it and run their tasks, and it is made again.
 */
@Timeout(300)
class StartupArchiveIT {

  private static ItCluster it;

  @BeforeAll
  static void start() throws Exception {
    it = ItCluster.start("startup-archive", s -> s.withNodeManagers(1));
    it.sharedStartupArchives = false; // the default place, in each node's own directories
  }

  @AfterAll
  static void stop() {
    if (it != null) {
      it.close();
    }
  }

  /**
   * @param tasks of 1.5 s each on 2 executors: the archive is made after registration and stopped
   *     when the application ends, so a job that makes it lasts a few seconds
   */
  private static ItCluster.ClientRun job(int tasks) throws Exception {
    ItCluster.ClientRun run = it.client("submit", "--conf", "elasticam.executor.instances=2",
        "--conf", "elasticam.executor.memory=256m", "sleep", "--tasks", String.valueOf(tasks), "--task-ms", "1500");
    assertEquals(0, run.exitCode(), run.out() + run.err());
    return run;
  }

  /** How each executor of the application started, from executor_registered. */
  private static List<String> archiveStates(ApplicationId app) throws IOException {
    List<JsonNode> registered = ItCluster.ofType(it.events(app), "executor_registered");
    assertFalse(registered.isEmpty());
    return registered.stream().map(r -> r.path("start").path("archive").asText()).toList();
  }

  private static String executorLogs(ApplicationId app) throws IOException {
    return logs(app, "executor.log");
  }

  private static String logs(ApplicationId app, String name) throws IOException {
    StringBuilder all = new StringBuilder();
    for (Path f : it.appLogFiles(app)) {
      if (f.getFileName().toString().equals(name)) {
        all.append(Files.readString(f));
      }
    }
    return all.toString();
  }

  /** The application's {@code name} logs once they have a line containing one of {@code texts}. */
  private static String awaitLogLine(ApplicationId app, String name, List<String> texts, Duration timeout)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    String all = logs(app, name);
    while (texts.stream().noneMatch(all::contains) && System.nanoTime() < deadline) {
      Thread.sleep(200);
      all = logs(app, name);
    }
    return all;
  }

  /** How the application's AM started, from am_registered. */
  private static String amArchiveState(ApplicationId app) throws IOException {
    List<JsonNode> registered = ItCluster.ofType(it.events(app), "am_registered");
    assertEquals(1, registered.size());
    JsonNode start = registered.get(0).path("start");
    assertTrue(start.path("registered").path("cpu_ms").asLong() > 0, start.toString());
    return start.path("archive").asText();
  }

  private static Optional<Path> archive() throws IOException {
    return archive("executor.jsa");
  }

  private static Optional<Path> archive(String name) throws IOException {
    return ItCluster.paths(it.cluster.workDir(), p -> p.getFileName().toString().equals(name)
        && p.getParent().getParent().getFileName().toString().equals("elasticam-startup")).stream().findFirst();
  }

  /** The archive once an executor finished making it: it is made after registration, beside the tasks. */
  private static Path awaitArchive(long olderThan) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      Optional<Path> a = archive();
      if (a.isPresent() && Files.getLastModifiedTime(a.get()).toMillis() > olderThan) {
        return a.get();
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no start-up archive was made under " + it.cluster.workDir());
  }

  @Test
  void theFirstExecutorsMakeTheArchiveTheNextStartFromItAndARefusedOneIsMadeAgain() throws Exception {
    assertTrue(archive().isEmpty(), "a new node has none");
    // Long enough for the executors' archive (about 3-5 s after they register), not for the AM's
    // after it (one dump at a time per build, the executors' first; about 7 s): the AM, once it
    // unregistered, waits for its dump rather than end it with the application.
    ItCluster.ClientRun first = job(10);
    assertTrue(archiveStates(first.appId()).stream().allMatch("absent"::equals), archiveStates(first.appId()).toString());
    assertEquals("absent", amArchiveState(first.appId()));
    Path archive = awaitArchive(0);
    assertTrue(archive.toString().contains("/usercache/"), "beside the user's applications: " + archive);
    assertTrue(Files.exists(archive.resolveSibling("elasticam.jar")), "with the jar it was made from");
    assertTrue(executorLogs(first.appId()).contains("made this node's start-up archive"));
    String amLog = awaitLogLine(first.appId(), "am.log", List.of("The AM made this node's start-up archive",
        "The AM did not make a start-up archive"), Duration.ofSeconds(60));
    assertTrue(amLog.contains("The AM made this node's start-up archive"),
        "the AM's own archive, made once its first executor registered, even if its application ended first:\n"
            + amLog);
    int unregistered = amLog.indexOf("Unregistered with final status");
    if (unregistered >= 0 && unregistered < amLog.indexOf("The AM made this node's start-up archive")) {
      assertTrue(amLog.contains("The AM waits up to 30 s for its start-up archive"), amLog);
    }
    assertEquals(Optional.of(archive.resolveSibling("am.jsa")), archive("am.jsa"), "beside the executors'");

    ItCluster.ClientRun second = job(2);
    assertTrue(archiveStates(second.appId()).stream().allMatch("used"::equals), archiveStates(second.appId()).toString());
    assertTrue(executorLogs(second.appId()).contains("started from this node's start-up archive"));
    assertEquals("used", amArchiveState(second.appId()));
    assertTrue(logs(second.appId(), "am.log").contains("The AM started from this node's start-up archive"));

    // An archive this Java cannot read (as one from another Java build would be).
    Path garbage = archive.resolveSibling("garbage");
    Files.write(garbage, new byte[4096]);
    long replacedAt = System.currentTimeMillis();
    Files.move(garbage, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    ItCluster.ClientRun third = job(10);
    List<String> refused = archiveStates(third.appId());
    assertTrue(refused.contains("refused"), refused.toString());
    assertTrue(executorLogs(third.appId()).contains("the JVM could not use it"));
    awaitArchive(replacedAt);
    assertTrue(Files.size(archive) > 4096, "made again");
    assertEquals(1L, java.util.regex.Pattern.compile("made this node's start-up archive")
        .matcher(executorLogs(third.appId())).results().count(),
        "by one executor, which the other leaves alone");

    ItCluster.ClientRun fourth = job(2);
    assertTrue(archiveStates(fourth.appId()).stream().allMatch("used"::equals), archiveStates(fourth.appId()).toString());
  }
}
