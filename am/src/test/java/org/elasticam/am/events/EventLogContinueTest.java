package org.elasticam.am.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.elasticam.time.ManualClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A second AM attempt writes on in the application's one event log. */
class EventLogContinueTest {

  @TempDir
  Path dir;

  @Test
  void theSecondAttemptAppendsAndALineCutByTheKillStaysALineOfItsOwn() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    org.apache.hadoop.fs.Path d = new org.apache.hadoop.fs.Path(dir.toUri());
    ManualClock clock = new ManualClock(1_000);
    try (EventLog first = EventLog.create(fs, d, "application_1_0001", clock)) {
      first.write(org.elasticam.report.events.Event.APP_START, org.elasticam.report.events.EventFields.ATTEMPT, 1);
    }
    Path file = dir.resolve("application_1_0001.jsonl");
    // The first attempt died in the middle of a line.
    Files.writeString(file, "{\"ts\":1000,\"event\":\"task_e", java.nio.file.StandardOpenOption.APPEND);
    try (EventLog second = EventLog.continueOrCreate(fs, d, "application_1_0001", clock)) {
      second.write(org.elasticam.report.events.Event.APP_START, org.elasticam.report.events.EventFields.ATTEMPT, 2);
    }
    List<String> lines = Files.readAllLines(file);
    assertEquals(3, lines.size(), lines.toString());
    assertTrue(lines.get(0).contains("\"attempt\":1"), lines.get(0));
    assertEquals("{\"ts\":1000,\"event\":\"task_e", lines.get(1));
    assertTrue(lines.get(2).contains("\"attempt\":2"), lines.get(2));
  }

  @Test
  void withoutALogFromAnEarlierAttemptItStartsOne() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    try (EventLog log = EventLog.continueOrCreate(fs, new org.apache.hadoop.fs.Path(dir.toUri()), "app_2",
        new ManualClock(0))) {
      log.write(org.elasticam.report.events.Event.APP_START, org.elasticam.report.events.EventFields.ATTEMPT, 2);
    }
    assertEquals(1, Files.readAllLines(dir.resolve("app_2.jsonl")).size());
  }
}
