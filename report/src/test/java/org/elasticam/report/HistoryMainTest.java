package org.elasticam.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

class HistoryMainTest {

  @TempDir
  Path dir;

  private String out;
  private String err;

  private int run(String... args) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code = HistoryMain.run(args, new PrintStream(o, true, StandardCharsets.UTF_8),
        new PrintStream(e, true, StandardCharsets.UTF_8));
    out = o.toString(StandardCharsets.UTF_8);
    err = e.toString(StandardCharsets.UTF_8);
    return code;
  }

  /** Two executors on two hosts; e1 runs two 2 s tasks back to back, e2 one 1 s task and idles out. */
  private static final String LOG = String.join("\n",
      "{\"ts\":1000,\"event\":\"app_start\",\"app_id\":\"application_1_0001\",\"attempt\":1,\"conf\":{}}",
      "{\"ts\":1000,\"event\":\"target_changed\",\"target\":2,\"previous\":0,\"reason\":\"initial\"}",
      "{\"ts\":1000,\"event\":\"executor_launched\",\"executor_id\":\"1\",\"container_id\":\"c1\",\"host\":\"h1\"}",
      "{\"ts\":1000,\"event\":\"executor_launched\",\"executor_id\":\"2\",\"container_id\":\"c2\",\"host\":\"h2\"}",
      "{\"ts\":2000,\"event\":\"stage_submitted\",\"stage_id\":0,\"tasks\":3}",
      "{\"ts\":4000,\"event\":\"task_end\",\"stage_id\":0,\"task\":0,\"executor_id\":\"1\",\"host\":\"h1\","
          + "\"locality\":\"NODE_LOCAL\",\"duration_ms\":2000,\"status\":\"SUCCESS\"}",
      "{\"ts\":3000,\"event\":\"task_end\",\"stage_id\":0,\"task\":1,\"executor_id\":\"2\",\"host\":\"h2\","
          + "\"locality\":\"ANY\",\"duration_ms\":1000,\"status\":\"SUCCESS\"}",
      "{\"ts\":6000,\"event\":\"task_end\",\"stage_id\":0,\"task\":2,\"executor_id\":\"1\",\"host\":\"h1\","
          + "\"locality\":\"NODE_LOCAL\",\"duration_ms\":2000,\"status\":\"SUCCESS\"}",
      "{\"ts\":5000,\"event\":\"executor_removed\",\"executor_id\":\"2\",\"container_id\":\"c2\",\"reason\":\"idle\","
          + "\"exit_status\":0,\"counted_as_failure\":false}",
      "{\"ts\":6000,\"event\":\"stage_completed\",\"stage_id\":0,\"tasks\":3}",
      "{\"ts\":7000,\"event\":\"executor_removed\",\"executor_id\":\"1\",\"container_id\":\"c1\",\"reason\":"
          + "\"app_end\",\"exit_status\":0,\"counted_as_failure\":false}",
      "{\"ts\":7000,\"event\":\"app_end\",\"final_status\":\"SUCCEEDED\",\"diagnostics\":\"\",\"executor_seconds\":10.0}");

  @Test
  void figuresOfAKnownRun() throws Exception {
    Path log = Files.writeString(dir.resolve("application_1_0001.jsonl"), LOG + "\n");
    assertEquals(0, run(log.toString()), err);
    assertTrue(out.startsWith("application_1_0001 (attempt 1): SUCCEEDED in 6.0 s"), out);
    // e1 held 6 s, busy 4 s; e2 held 4 s, busy 1 s: 10 executor-seconds, 5 idle.
    assertTrue(out.contains("executors: 2 launched, at most 2 at once; executor-seconds 10.0 (logged 10.0), idle 5.0"
        + " (50 %)"), out);
    assertTrue(out.contains("locality of successful tasks: NODE_LOCAL 67 %, ANY 33 %"), out);
    assertTrue(out.contains("executors removed: {app_end=1, idle=1}"), out);
    assertTrue(out.contains("stage 0: 3 tasks, 3 attempts, 4.0 s, median task 2000 ms\n"), out);
    assertFalse(out.contains("counters"), "a log without names and counters reads as it always did: " + out);

    String html = Files.readString(dir.resolve("application_1_0001.html"));
    assertTrue(out.contains("report: " + dir.resolve("application_1_0001.html").toAbsolutePath()), out);
    assertFalse(html.contains("<script") || html.contains("http://") && !html.contains("http://www.w3.org/2000/svg"),
        "self-contained");
    List<Document> svgs = ReportStructure.svgs(html);
    assertEquals(2, svgs.size());
    Document gantt = svgs.get(1);
    assertEquals(2, ReportStructure.rects(gantt, "held"), "one bar per executor");
    assertEquals(3, ReportStructure.rects(gantt, "task"), "one bar per task");
  }

  private static String taskEnd(int ts, int stage, int task, int attempt, String status, String more) {
    return "{\"ts\":" + ts + ",\"event\":\"task_end\",\"stage_id\":" + stage + ",\"task\":" + task
        + ",\"attempt\":" + attempt + ",\"executor_id\":\"1\",\"host\":\"h1\",\"locality\":\"ANY\","
        + "\"duration_ms\":500,\"status\":\"" + status + "\"" + more + "}";
  }

  /**
   * Stage names from stage_submitted; a completed stage's counters from its stage_completed, a
   * running one's summed so far from its successful, not superseded attempts, one per task.
   */
  @Test
  void stagesShowTheirNamesAndCounters() throws Exception {
    String run = String.join("\n",
        "{\"ts\":1000,\"event\":\"app_start\",\"app_id\":\"application_1_0005\",\"attempt\":1,\"conf\":{}}",
        "{\"ts\":1000,\"event\":\"stage_submitted\",\"stage_id\":0,\"name\":\"parse\",\"tasks\":2}",
        taskEnd(2000, 0, 0, 0, "SUCCESS", ",\"counters\":{\"shuffle.records.written\":10,\"lines.bad\":1}"),
        taskEnd(2100, 0, 1, 0, "SUCCESS", ",\"counters\":{\"shuffle.records.written\":15,\"lines.bad\":0}"),
        "{\"ts\":2100,\"event\":\"stage_completed\",\"stage_id\":0,\"tasks\":2,"
            + "\"counters\":{\"lines.bad\":1,\"shuffle.records.written\":25}}",
        "{\"ts\":2200,\"event\":\"stage_submitted\",\"stage_id\":1,\"name\":\"sum\",\"tasks\":3}",
        taskEnd(3000, 1, 0, 0, "SUCCESS", ",\"counters\":{\"shuffle.records.read\":9}"),
        taskEnd(3100, 1, 1, 0, "FAILED", ",\"error\":\"boom\""),
        taskEnd(3200, 1, 1, 1, "SUCCESS", ",\"counters\":{\"shuffle.records.read\":8}"),
        taskEnd(3300, 1, 0, 1, "SUCCESS", ",\"superseded\":true,\"counters\":{\"shuffle.records.read\":99}"));
    Path log = Files.writeString(dir.resolve("application_1_0005.jsonl"), run + "\n");
    assertEquals(0, run(log.toString()), err);
    assertTrue(out.contains("  stage 0 (parse): 2 tasks, 2 attempts, 1.1 s, median task 500 ms\n"
        + "    counters: lines.bad=1, shuffle.records.written=25\n"), out);
    assertTrue(out.contains("  stage 1 (sum): 3 tasks, 4 attempts, not completed, median task 500 ms\n"
        + "    counters: shuffle.records.read=17\n"), out);
    String html = Files.readString(dir.resolve("application_1_0005.html"));
    assertTrue(html.contains("stage 1 (sum)") && html.contains("shuffle.records.read=17"), html);
    RunHistory h = RunHistory.read(Files.newBufferedReader(log));
    assertEquals(java.util.Set.of(), h.beyondSchema(), "counters are in the schema");
    assertEquals("parse", h.stages().get(0).name());
    assertEquals(java.util.Map.of("lines.bad", 1L, "shuffle.records.written", 25L), h.stages().get(0).counters());
  }

  @Test
  void aPlainPathAndEveryFileUriSpellingNameTheSameLog() throws Exception {
    Path spaced = Files.createDirectories(dir.resolve("with space"));
    Path log = Files.writeString(spaced.resolve("application_1_0001.jsonl"), LOG + "\n");
    String abs = log.toAbsolutePath().toString();
    for (String given : List.of(abs, "file:" + abs, "file://" + abs, "file://localhost" + abs, log.toUri().toString())) {
      Files.deleteIfExists(spaced.resolve("application_1_0001.html"));
      assertEquals(0, run(given), given + ": " + err);
      assertTrue(Files.exists(spaced.resolve("application_1_0001.html")), "the report beside the log: " + given);
    }
  }

  @Test
  void aLogOnAnotherFileSystemNeedsHadoopsClientAndSaysSo() {
    assertEquals(2, run("hdfs://nn:8020/user/me/.elasticam/events/application_1_0001.jsonl"));
    assertEquals(1, err.lines().count(), err);
    assertTrue(err.contains("hdfs: URIs needs Hadoop's client"), err);
  }

  @Test
  void speculativeCopiesAndWhichAttemptWonAreCounted() throws Exception {
    String run = String.join("\n",
        "{\"ts\":1000,\"event\":\"app_start\",\"app_id\":\"application_1_0003\",\"attempt\":1,\"conf\":{}}",
        "{\"ts\":1000,\"event\":\"stage_submitted\",\"stage_id\":0,\"tasks\":2}",
        "{\"ts\":3000,\"event\":\"task_speculated\",\"stage_id\":0,\"task\":0,\"attempt\":0}",
        "{\"ts\":3000,\"event\":\"task_speculated\",\"stage_id\":0,\"task\":1,\"attempt\":0}",
        "{\"ts\":4000,\"event\":\"task_end\",\"stage_id\":0,\"task\":0,\"attempt\":1,\"executor_id\":\"2\","
            + "\"host\":\"h2\",\"locality\":\"ANY\",\"duration_ms\":900,\"status\":\"SUCCESS\",\"speculative\":true,"
            + "\"won_over_attempts\":[0]}",
        "{\"ts\":4001,\"event\":\"task_end\",\"stage_id\":0,\"task\":0,\"attempt\":0,\"executor_id\":\"1\","
            + "\"host\":\"h1\",\"locality\":\"ANY\",\"duration_ms\":3001,\"status\":\"KILLED\",\"speculative\":false,"
            + "\"superseded\":true}",
        "{\"ts\":4500,\"event\":\"task_end\",\"stage_id\":0,\"task\":1,\"attempt\":0,\"executor_id\":\"1\","
            + "\"host\":\"h1\",\"locality\":\"ANY\",\"duration_ms\":3500,\"status\":\"SUCCESS\",\"speculative\":false,"
            + "\"won_over_attempts\":[1]}",
        "{\"ts\":5000,\"event\":\"app_end\",\"final_status\":\"SUCCEEDED\",\"diagnostics\":\"\",\"executor_seconds\":8.0}");
    Path log = Files.writeString(dir.resolve("application_1_0003.jsonl"), run + "\n");
    assertEquals(0, run(log.toString()), err);
    assertTrue(out.contains("speculation: 2 slow task(s) copied; the copy finished first 1, the original 1\n"), out);
  }

  @Test
  void abandonedBatchesAreListedWithTheirErrors() throws Exception {
    String run = String.join("\n",
        "{\"ts\":1000,\"event\":\"app_start\",\"app_id\":\"application_1_0004\",\"attempt\":1,\"conf\":{}}",
        "{\"ts\":2000,\"event\":\"batch_failed\",\"batch\":5,\"reason\":\"Task 1 of stage 5001 failed 2 times\","
            + "\"failed_in_a_row\":1}",
        "{\"ts\":3000,\"event\":\"app_end\",\"final_status\":\"SUCCEEDED\",\"diagnostics\":\"\",\"executor_seconds\":1.0}");
    Path log = Files.writeString(dir.resolve("application_1_0004.jsonl"), run + "\n");
    assertEquals(0, run(log.toString()), err);
    assertTrue(out.contains("failed batches (abandoned; the stream went on): 1\n  batch 5: Task 1 of stage 5001 failed"
        + " 2 times\n"), out);
  }

  @Test
  void aFailedRunSaysWhyAndWhichAttemptsFailedWithWhat() throws Exception {
    String failed = String.join("\n",
        "{\"ts\":1000,\"event\":\"app_start\",\"app_id\":\"application_1_0002\",\"attempt\":1,\"conf\":{}}",
        "{\"ts\":1000,\"event\":\"stage_submitted\",\"stage_id\":0,\"name\":\"parse\",\"tasks\":1}",
        "{\"ts\":2000,\"event\":\"task_end\",\"stage_id\":0,\"task\":0,\"attempt\":0,\"executor_id\":\"1\","
            + "\"host\":\"h1\",\"locality\":\"ANY\",\"duration_ms\":900,\"status\":\"FAILED\","
            + "\"error\":\"NumberFormatException: For input string: \\\"x\\\" at a.Parse.run(Parse.java:9)\"}",
        "{\"ts\":3000,\"event\":\"app_end\",\"final_status\":\"FAILED\",\"diagnostics\":\"Task 0 of stage 0 (parse)"
            + " failed 1 times\",\"executor_seconds\":2.0}");
    Path log = Files.writeString(dir.resolve("application_1_0002.jsonl"), failed + "\n");
    assertEquals(0, run(log.toString()), err);
    assertTrue(out.contains("why: Task 0 of stage 0 (parse) failed 1 times\n"), out);
    assertTrue(out.contains("  stage 0 (parse) task 0 on executor 1 (h1): NumberFormatException: For input string: \"x\""
        + " at a.Parse.run(Parse.java:9)\n"), out);
    assertTrue(out.contains("  stage 0 (parse): 1 tasks"), out);
  }

  @Test
  void tasksStartedAndNotEndedAreRunning() throws Exception {
    String live = String.join("\n",
        "{\"ts\":1000,\"event\":\"executor_launched\",\"executor_id\":\"1\",\"container_id\":\"c1\",\"host\":\"h1\"}",
        "{\"ts\":1500,\"event\":\"stage_submitted\",\"stage_id\":0,\"tasks\":2}",
        "{\"ts\":2000,\"event\":\"task_start\",\"stage_id\":0,\"task\":0,\"attempt\":0,\"executor_id\":\"1\","
            + "\"host\":\"h1\",\"locality\":\"NODE_LOCAL\"}",
        "{\"ts\":2000,\"event\":\"task_start\",\"stage_id\":0,\"task\":1,\"attempt\":0,\"executor_id\":\"1\","
            + "\"host\":\"h1\",\"locality\":\"NODE_LOCAL\"}",
        "{\"ts\":3000,\"event\":\"task_end\",\"stage_id\":0,\"task\":0,\"attempt\":0,\"executor_id\":\"1\","
            + "\"host\":\"h1\",\"locality\":\"NODE_LOCAL\",\"duration_ms\":1000,\"status\":\"SUCCESS\"}",
        "{\"ts\":5000,\"event\":\"target_changed\",\"target\":1,\"previous\":1,\"reason\":\"steady\"}");
    RunHistory h = RunHistory.read(new java.io.BufferedReader(new java.io.StringReader(live)));
    assertEquals(1, h.running().size());
    Timeline.Row last = h.timeline().get(h.timeline().size() - 1);
    assertEquals(1, last.runningTasks(), h.timeline().toString());
    assertEquals(0, last.pendingTasks());
    assertEquals(3000, h.launched().get(0).busyMs(h.endMs()), "1 s of task 0, overlapping 3 s of task 1");
    Document gantt = ReportStructure.svgs(RunReport.html(h, "live")).get(1);
    assertEquals(1, ReportStructure.rects(gantt, "task"));
    assertEquals(1, ReportStructure.rects(gantt, "task-running"));
  }

  @Test
  void aTornLastLineIsSkippedAndABrokenOneNamed() throws Exception {
    Path torn = Files.writeString(dir.resolve("torn.jsonl"), LOG + "\n{\"ts\":8000,\"event\":\"exec");
    assertEquals(0, run(torn.toString()), err);
    assertTrue(out.contains("was cut short and was skipped"), out);
    // A second AM attempt went on writing after the line the first was killed in.
    Path continued = Files.writeString(dir.resolve("continued.jsonl"), LOG + "\n{\"ts\":8000,\"event\":\"exec\n"
        + "{\"ts\":9000,\"event\":\"app_start\",\"app_id\":\"application_1_0001\",\"attempt\":2}\n");
    assertEquals(0, run(continued.toString()), err);
    assertTrue(out.contains("was cut short and was skipped"), out);

    String[] lines = LOG.split("\n");
    lines[3] = "{\"ts\":";
    Path broken = Files.writeString(dir.resolve("broken.jsonl"), String.join("\n", lines) + "\n");
    assertEquals(2, run(broken.toString()));
    assertTrue(err.startsWith("elasticam history: " + broken + " is not an event log: line 4 is not JSON"), err);
    assertEquals(1, err.lines().count(), err);
  }

  @Test
  void badInputIsOneLineAndExitTwo() throws Exception {
    Files.write(dir.resolve("binary.jsonl"), new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, 2});
    Files.writeString(dir.resolve("array.jsonl"), "[1,2,3]\n{}\n");
    Files.writeString(dir.resolve("empty.jsonl"), "");
    for (String[] args : List.of(new String[] {}, new String[] {"--bogus"}, new String[] {"a", "b"},
        new String[] {"x.jsonl", "--out"}, new String[] {dir.resolve("missing.jsonl").toString()},
        new String[] {dir.resolve("binary.jsonl").toString()}, new String[] {dir.resolve("array.jsonl").toString()},
        new String[] {dir.resolve("empty.jsonl").toString()})) {
      assertEquals(2, run(args), String.join(" ", args));
      assertEquals(1, err.lines().count(), err);
      assertTrue(err.startsWith("elasticam history: "), err);
      assertFalse(err.contains("Exception"), err);
    }
    assertEquals(0, run("--help"));
    assertTrue(out.startsWith("usage: bin/elasticam history"), out);
  }
}
