package org.elasticam.workload;

import static org.elasticam.workload.TraceLines.simpleStage;
import static org.elasticam.workload.TraceLines.stage;
import static org.elasticam.workload.TraceLines.task;
import static org.elasticam.workload.TraceLines.write;
import static org.elasticam.workload.TraceLines.writeRaw;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceReadTest {

  @TempDir
  Path dir;

  @Test
  void readsTheFieldsTheReplayUsesAndIgnoresTheRest() throws Exception {
    String line = "{\"stage_id\":7,\"attempt\":1,\"job_ids\":[3],\"name\":\"count at X.scala:9\","
        + "\"submit_ms\":100,\"complete_ms\":900,\"num_tasks\":1,\"parents\":[5,6],"
        + "\"failure\":\"boom\",\"resubmitted_task_ids\":[4],\"something_new\":{\"x\":[1]},"
        + "\"tasks\":[{\"task_id\":12,\"index\":0,\"attempt\":2,\"launch_ms\":150,"
        + "\"duration_ms\":700,\"run_ms\":null,\"executor\":\"3\",\"host\":\"node7\","
        + "\"locality\":\"NODE_LOCAL\",\"speculative\":true,\"status\":\"FAILED:FetchFailed\"}]}";

    Trace trace = TraceLines.read(dir, line);

    TraceTask task = new TraceTask(0, 2, 150, 700, "node7", "NODE_LOCAL", true, "FAILED:FetchFailed");
    assertEquals(List.of(new TraceStage(7, 1, "count at X.scala:9", 100, 900, List.of(5, 6),
        List.of(task))), trace.stageAttempts());
  }

  @Test
  void keepsFileOrderAndToleratesBlankLinesCarriageReturnsAndNoFinalNewline() throws Exception {
    Path file = writeRaw(dir, "\n" + simpleStage(1, 10, 20, List.of(), 5) + "\r\n  \t\n\n"
        + simpleStage(0, 30, 40, List.of(), 5));

    List<TraceStage> stages = Trace.read(file).stageAttempts();

    assertEquals(List.of(1, 0), stages.stream().map(TraceStage::stageId).toList());
  }

  @Test
  void nullsTheGeneratorMayWriteAreFilledIn() throws Exception {
    String line = "{\"stage_id\":0,\"attempt\":0,\"name\":null,\"submit_ms\":null,"
        + "\"complete_ms\":null,\"parents\":[],\"tasks\":["
        + "{\"index\":0,\"attempt\":0,\"launch_ms\":40,\"duration_ms\":100,\"host\":null,"
        + "\"locality\":null,\"speculative\":false,\"status\":\"SUCCESS\"},"
        + "{\"index\":1,\"attempt\":0,\"launch_ms\":30,\"duration_ms\":50,\"host\":\"h\","
        + "\"locality\":\"ANY\",\"speculative\":false,\"status\":\"SUCCESS\"}]}";

    TraceStage stage = TraceLines.read(dir, line).stageAttempts().get(0);

    assertEquals("", stage.name());
    assertEquals(30, stage.submitMs(), "earliest launch");
    assertEquals(140, stage.completeMs(), "latest finish: 40 + 100");
    assertEquals("", stage.tasks().get(0).host());
    assertEquals("", stage.tasks().get(0).locality());
  }

  @Test
  void anEmptyFileIsAnErrorAboutTheWholeFile() {
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> Trace.read(writeRaw(dir, "")));

    assertEquals(0, e.line());
    assertEquals("no stage attempt in the file (it is empty or blank)", e.reason());
    assertEquals(dir.resolve("test.trace.jsonl") + ": " + e.reason(), e.getMessage());
  }

  @Test
  void aFileOfBlankLinesIsEmptyToo() {
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> Trace.read(writeRaw(dir, "\n \r\n\t\n")));

    assertEquals("no stage attempt in the file (it is empty or blank)", e.reason());
  }

  @Test
  void theMessageNamesFileAndLineOnOneLine() {
    Path file = write(dir, simpleStage(0, 0, 10, List.of(), 5), "", "{\"stage_id\":");

    TraceFormatException e = assertThrows(TraceFormatException.class, () -> Trace.read(file));

    assertEquals(3, e.line(), "blank lines count");
    assertEquals(file, e.file());
    assertEquals(file + ":3: " + e.reason(), e.getMessage());
    assertEquals(1, e.getMessage().lines().count());
  }

  @Test
  void theSameStageAttemptTwiceIsRefused() {
    String once = simpleStage(1, 0, 10, List.of(), 5);

    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> TraceLines.read(dir, once, simpleStage(2, 0, 10, List.of(), 5), once));

    assertEquals(3, e.line());
    assertEquals("stage 1 attempt 0 already appeared on line 1", e.reason());
  }

  @Test
  void parentsThatFormACycleAreRefused() {
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> TraceLines.read(dir,
        simpleStage(0, 0, 10, List.of(), 5),
        simpleStage(1, 20, 30, List.of(2), 5),
        simpleStage(2, 40, 50, List.of(1), 5)));

    assertEquals(2, e.line());
    assertEquals("stages 1, 2 could never be submitted: their parents and times contradict each"
        + " other (a stage would wait for itself)", e.reason());
  }

  @Test
  void aStageThatIsItsOwnParentIsRefused() {
    TraceFormatException e = assertThrows(TraceFormatException.class,
        () -> TraceLines.read(dir, simpleStage(4, 0, 10, List.of(4), 5)));

    assertEquals(1, e.line());
    assertEquals("stage 4 could never be submitted: their parents and times contradict each"
        + " other (a stage would wait for itself)", e.reason());
  }

  @Test
  void aParentThatCompletedBeforeItsChildsSubmissionIsAContradiction() {
    // Stage 1 has no parents and stage 0 completed before it was submitted, so 1 waits for 0;
    // but 0 names 1 as its parent.
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> TraceLines.read(dir,
        simpleStage(0, 100, 200, List.of(1), 5),
        simpleStage(1, 300, 400, List.of(), 5)));

    assertEquals("stages 0, 1 could never be submitted: their parents and times contradict each"
        + " other (a stage would wait for itself)", e.reason());
  }

  @Test
  void aLineOverTheBoundIsRefusedWithoutReadingItWhole() {
    Path file = write(dir, simpleStage(0, 0, 10, List.of(), 5), " ".repeat(1001) + "{}");

    TraceFormatException e = assertThrows(TraceFormatException.class, () -> Trace.read(file, 1000));

    assertEquals(2, e.line());
    assertEquals("line is longer than 1000 bytes", e.reason());
  }

  @Test
  void theRealBoundIs64MiB() throws Exception {
    byte[] content = new byte[LineReader.MAX_LINE_BYTES + 1];
    java.util.Arrays.fill(content, (byte) ' ');
    Path file = dir.resolve("huge.trace.jsonl");
    Files.write(file, content);

    TraceFormatException e = assertThrows(TraceFormatException.class, () -> Trace.read(file));

    assertEquals(1, e.line());
    assertEquals("line is longer than 64 MiB", e.reason());
  }

  @Test
  void aMissingFileIsAnIoErrorNotAFormatError() {
    assertThrows(NoSuchFileException.class, () -> Trace.read(dir.resolve("absent.trace.jsonl")));
  }

  @Test
  void aTaskStatusMayBeBareFailedOrKilled() throws Exception {
    Trace trace = TraceLines.read(dir, stage(0, 0, 0, 10, List.of(),
        task(0, 0, 0, 5, "h", "ANY", "FAILED"), task(0, 1, 5, 5, "h", "ANY", "KILLED")));

    assertEquals(List.of("FAILED", "KILLED"),
        trace.stageAttempts().get(0).tasks().stream().map(TraceTask::status).toList());
  }

  @Test
  void aTraceBuiltInMemoryIsCheckedAsAFileIs() {
    TraceTask t = new TraceTask(0, 0, 0, 100, "", "ANY", false, TraceTask.SUCCESS);
    TraceStage a = new TraceStage(0, 0, "a", 0, 100, List.of(), List.of(t));
    TraceStage b = new TraceStage(1, 0, "b", 150, 250, List.of(0), List.of(t));

    assertEquals(List.of(a, b), Trace.of(List.of(a, b)).stageAttempts());
    assertThrows(IllegalArgumentException.class, () -> Trace.of(List.of()));
    assertThrows(IllegalArgumentException.class, () -> Trace.of(List.of(a, a)));
    TraceStage waitsForItself = new TraceStage(2, 0, "c", 0, 10, List.of(2), List.of(t));
    assertThrows(IllegalArgumentException.class, () -> Trace.of(List.of(waitsForItself)));
  }
}
