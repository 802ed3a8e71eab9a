package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A straggler on the embedded cluster: one task of four sleeps 20 times as long as its siblings on
 * its first attempt. With {@code elasticam.speculation} a copy runs on the other node, wins, and the
 * original is killed (a second stage keeps the job running while its end is reported); once both executors
 * run its tasks, the stage ends in about the siblings' time plus the copy's, not the straggler's; each task's output is published by exactly one attempt (a second publication would
 * fail its task: the job moves its file into place without replacing), and the original, which
 * ignores the kill and asks to commit, is told no.
 */
@Timeout(300)
class SpeculationIT {

  private static final long SIBLING_MS = 1_500;
  private static ItCluster it;

  @BeforeAll
  static void start() throws Exception {
    it = ItCluster.start("speculation", s -> s.withNodeManagers(2));
  }

  @AfterAll
  static void stop() {
    if (it != null) {
      it.close();
    }
  }

  @Test
  void aStragglersCopyWinsAndEachTaskPublishesOnce() throws Exception {
    Path out = Path.of("target", "speculation", "out").toAbsolutePath();
    Files.createDirectories(out);
    try (Stream<Path> old = Files.list(out)) {
      for (Path p : old.toList()) {
        Files.delete(p);
      }
    }
    Path jar = UserJobJar.build(Path.of("target", "speculation"), "straggler.jar", Map.of("Straggler", String.join("\n",
        "package it.user;",
        "import java.nio.file.*;",
        "import java.util.*;",
        "import org.elasticam.api.*;",
        "public class Straggler implements Job {",
        "  public List<Stage> stages(String[] args) {",
        "    Stage.Builder b = Stage.builder(0, \"straggling\", Part.class);",
        "    for (int i = 0; i < 4; i++) b.task(TaskSpec.of(Map.of(\"out\", args[0], \"ms\", args[1])));",
        "    Stage.Builder after = Stage.builder(1, \"after\", Nap.class).parents(0);",
        "    for (int i = 0; i < 2; i++) after.task(TaskSpec.of(Map.of(\"ms\", args[1])));",
        "    return List.of(b.build(), after.build());",
        "  }",
        "  public static class Nap implements Task {",
        "    public void run(TaskContext ctx) throws Exception { Thread.sleep(Long.parseLong(ctx.params().get(\"ms\"))); }",
        "  }",
        "  public static class Part implements Task {",
        "    public void run(TaskContext ctx) throws Exception {",
        "      long ms = Long.parseLong(ctx.params().get(\"ms\"));",
        "      if (ctx.partition() == 0 && ctx.attempt() == 0) ms *= 20;",
        "      Path dir = Paths.get(ctx.params().get(\"out\"));",
        "      Path tmp = dir.resolve(\".part-\" + ctx.partition() + \"-\" + ctx.attempt());",
        "      Files.write(tmp, (\"attempt \" + ctx.attempt() + \"\\n\").getBytes());",
        "      // Killed, it goes on as a task would whose work was done just then: the driver must say no.",
        "      try { Thread.sleep(ms); } catch (InterruptedException killed) { }",
        "      if (!ctx.canCommit()) {",
        "        Files.delete(tmp);",
        "        Files.write(dir.resolve(\"denied-\" + ctx.partition() + \"-\" + ctx.attempt()), new byte[0]);",
        "        return;",
        "      }",
        "      Files.move(tmp, dir.resolve(\"part-\" + ctx.partition()));",
        "    }",
        "  }",
        "}")));
    ItCluster.ClientRun run = it.client("submit",
        "--conf", "elasticam.speculation=true",
        "--conf", "elasticam.executor.instances=2",
        "--conf", "elasticam.executor.cores=1",
        "--conf", "elasticam.executor.memory=256m",
        "--conf", "elasticam.yarn.placement=spread",
        "--jar", jar.toString(), "--class", "it.user.Straggler", out.toString(), String.valueOf(SIBLING_MS));
    assertEquals(0, run.exitCode(), run.out() + run.err());

    List<JsonNode> events = it.events(run.appId());
    List<JsonNode> speculated = ItCluster.ofType(events, "task_speculated");
    assertEquals(1, speculated.size(), "one task found slow: " + speculated);
    assertEquals(0, speculated.get(0).path("task").asInt());

    List<JsonNode> starts = ItCluster.ofType(events, "task_start").stream()
        .filter(e -> e.path("stage_id").asInt() == 0 && e.path("task").asInt() == 0).toList();
    assertEquals(2, starts.size(), "the original and one copy: " + starts);
    assertTrue(starts.get(1).path("speculative").asBoolean(), "the second is the copy: " + starts);
    assertNotEquals(starts.get(0).path("host").asText(), starts.get(1).path("host").asText(),
        "the copy runs on another node");

    List<JsonNode> ends = ItCluster.ofType(events, "task_end").stream()
        .filter(e -> e.path("stage_id").asInt() == 0).toList();
    assertTrue(ends.stream().noneMatch(e -> e.path("status").asText().equals("FAILED")), "no attempt failed: " + ends);
    JsonNode copyEnd = ends.stream().filter(e -> e.path("task").asInt() == 0 && e.path("attempt").asInt() == 1)
        .findFirst().orElseThrow();
    assertEquals("SUCCESS", copyEnd.path("status").asText());
    assertEquals(0, copyEnd.path("won_over_attempts").get(0).asInt(), "the copy won over the original: " + copyEnd);
    JsonNode originalEnd = ends.stream().filter(e -> e.path("task").asInt() == 0 && e.path("attempt").asInt() == 0)
        .findFirst().orElseThrow();
    assertTrue(originalEnd.path("superseded").asBoolean(), "the original ended superseded: " + originalEnd);
    assertEquals("KILLED", originalEnd.path("status").asText(), "the original was killed, not left to sleep");

    // Timed from the moment both executors ran tasks of the stage: before that the stage waits on an
    // executor's start, which takes 1.6-9 s here depending on what else the machine runs, and says
    // nothing about speculation. Without the copy the stage then lasts the straggler's 30 s; with it,
    // the siblings' 3 s on the other executor plus the 1.5 x median wait and the copy's 1.5 s.
    List<JsonNode> stageStarts = ItCluster.ofType(events, "task_start").stream()
        .filter(e -> e.path("stage_id").asInt() == 0).toList();
    long bothRunning = stageStarts.stream()
        .collect(java.util.stream.Collectors.toMap(e -> e.path("host").asText(), e -> e.path("ts").asLong(), Math::min))
        .values().stream().mapToLong(Long::longValue).max().orElseThrow();
    long submitted = ItCluster.ofType(events, "stage_submitted").get(0).path("ts").asLong();
    long completed = ItCluster.ofType(events, "stage_completed").get(0).path("ts").asLong();
    assertTrue(completed - bothRunning < 20 * SIBLING_MS / 2,
        "the stage took " + (completed - bothRunning) + " ms after both executors ran its tasks, not the straggler's "
            + 20 * SIBLING_MS);

    Figures.record("SpeculationIT", "default", String.format(java.util.Locale.ROOT,
        "stage done %.1f s after both executors ran its tasks (%.1f s after it was submitted) against the"
            + " straggler's %.1f s; the copy on another node won",
        (completed - bothRunning) / 1000.0, (completed - submitted) / 1000.0, 20 * SIBLING_MS / 1000.0),
        "stage_s", Figures.seconds(bothRunning, completed), "submitted_to_done_s", Figures.seconds(submitted, completed),
        "straggler_s", 20 * SIBLING_MS / 1000.0);
    for (int p = 0; p < 4; p++) {
      assertTrue(Files.exists(out.resolve("part-" + p)), "part " + p + " published");
    }
    assertEquals("attempt 1\n", Files.readString(out.resolve("part-0")), "the copy's output is the one published");
    assertTrue(Files.exists(out.resolve("denied-0-0")), "the original, killed, asked to commit and was told no");
    try (Stream<Path> left = Files.list(out)) {
      assertEquals(List.of(), left.filter(f -> f.getFileName().toString().startsWith(".")).toList(),
          "no attempt's unpublished file is left");
    }
  }
}
