package org.elasticam.workload;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every broken line gives one clear reason on the line's number, never an exception trace. */
class MalformedLineTest {

  private static final String GOOD = TraceLines.stage(0, 0, 100, 200, List.of(),
      TraceLines.task(0, 0, 100, 50, "h", "ANY", "SUCCESS"));

  @TempDir
  Path dir;

  private static String good(String replace, String with) {
    if (!GOOD.contains(replace)) {
      throw new IllegalArgumentException(replace);
    }
    return GOOD.replace(replace, with);
  }

  private static String withTasks(String tasksJson) {
    return GOOD.substring(0, GOOD.indexOf("\"tasks\":")) + "\"tasks\":" + tasksJson + "}";
  }

  static Stream<Arguments> brokenLines() {
    return Stream.of(
        Arguments.of(withTasks("{}"), "tasks not array", "tasks: expected an array, found an object"),
        Arguments.of("[1,2]", "array", "the line: expected a JSON object, found an array"),
        Arguments.of("42", "number", "the line: expected a JSON object, found the number 42"),
        Arguments.of(good("\"stage_id\":0,", ""), "missing", "missing required field stage_id"),
        Arguments.of(good("\"duration_ms\":50,", ""), "missing in task",
            "missing required field tasks[0].duration_ms"),
        Arguments.of(good("\"stage_id\":0", "\"stage_id\":null"), "null",
            "stage_id: must not be null"),
        Arguments.of(good("\"submit_ms\":100", "\"submit_ms\":\"100\""), "string",
            "submit_ms: expected an integer, found a string \"100\""),
        Arguments.of(good("\"duration_ms\":50", "\"duration_ms\":1.5"), "fraction",
            "tasks[0].duration_ms: expected an integer, found a fractional number 1.5"),
        Arguments.of(good("\"duration_ms\":50", "\"duration_ms\":-5"), "negative duration",
            "tasks[0].duration_ms: must not be negative, got -5"),
        Arguments.of(good("\"submit_ms\":100", "\"submit_ms\":-1"), "negative submit",
            "submit_ms: must not be negative, got -1"),
        Arguments.of(good("\"index\":0", "\"index\":-2"), "negative index",
            "tasks[0].index: must not be negative, got -2"),
        Arguments.of(good("\"stage_id\":0", "\"stage_id\":3000000000"), "int overflow",
            "stage_id: out of range, got 3000000000"),
        Arguments.of(good("\"complete_ms\":200", "\"complete_ms\":100000000000000000000"),
            "long overflow", "complete_ms: out of range, got 100000000000000000000"),
        Arguments.of(good("\"complete_ms\":200", "\"complete_ms\":9007199254740993"),
            "beyond 2^53", "complete_ms: out of range (at most 2^53 ms), got 9007199254740993"),
        Arguments.of(good("\"complete_ms\":200", "\"complete_ms\":50"), "complete before submit",
            "complete_ms (50) is before submit_ms (100)"),
        Arguments.of(good("\"parents\":[]", "\"parents\":[\"a\"]"), "parent type",
            "parents[0]: expected an integer, found a string \"a\""),
        Arguments.of(good("\"parents\":[]", "\"parents\":3"), "parents not array",
            "parents: expected an array, found the number 3"),
        Arguments.of(good("\"tasks\":[{", "\"tasks\":[7,{"), "task not object",
            "tasks[0]: expected a JSON object, found the number 7"),
        Arguments.of(good("\"speculative\":false", "\"speculative\":\"no\""), "boolean",
            "tasks[0].speculative: expected true or false, found a string \"no\""),
        Arguments.of(good("\"host\":\"h\"", "\"host\":7"), "host type",
            "tasks[0].host: expected a string, found the number 7"),
        Arguments.of(good("\"SUCCESS\"", "\"RUNNING\""), "status",
            "tasks[0].status: must be SUCCESS, KILLED or FAILED:<reason>, got \"RUNNING\""),
        Arguments.of(withTasks("[]").replace("\"submit_ms\":100", "\"submit_ms\":null"),
            "null submit without tasks",
            "submit_ms is null and the stage has no task to date it by"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("brokenLines")
  void aBrokenFieldIsNamed(String line, String label, String reason) {
    TraceFormatException e = readBroken(line);

    assertEquals(reason, e.reason());
  }

  static Stream<Arguments> malformedJson() {
    return Stream.of(
        Arguments.of(GOOD.substring(0, GOOD.length() / 2), "truncated line"),
        Arguments.of("{\"stage_id\":", "truncated value"),
        Arguments.of("not json at all", "not json"),
        Arguments.of("{'stage_id':0}", "single quotes"),
        Arguments.of(GOOD + " {}", "two values on a line"),
        Arguments.of(GOOD.replace("{\"stage_id\":0,", "{\"stage_id\":0,\"stage_id\":1,"),
            "duplicate key"),
        Arguments.of(GOOD.replace("\"submit_ms\":100", "\"submit_ms\":NaN"), "NaN"),
        Arguments.of("[".repeat(5000), "deep nesting"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("malformedJson")
  void malformedJsonIsOneLine(String line, String label) {
    TraceFormatException e = readBroken(line);

    assertAll(
        () -> assertTrue(e.reason().startsWith("malformed JSON"), e.reason()),
        () -> assertEquals(1, e.getMessage().lines().count(), e.getMessage()),
        () -> assertFalse(e.reason().contains("[Source"), e.reason()),
        () -> assertTrue(e.reason().length() < 260, e.reason()));
  }

  @Test
  void invalidUtf8IsMalformedJson() throws Exception {
    byte[] bytes = GOOD.replace("\"h\"", "\"\u00e9\"").getBytes("ISO-8859-1");
    Path file = dir.resolve("latin1.trace.jsonl");
    Files.write(file, bytes);

    TraceFormatException e = assertThrows(TraceFormatException.class, () -> Trace.read(file));

    assertTrue(e.reason().startsWith("malformed JSON at column "), e.reason());
  }

  private TraceFormatException readBroken(String line) {
    Path file = TraceLines.write(dir, GOOD.replace("\"stage_id\":0", "\"stage_id\":9"), line);
    TraceFormatException e = assertThrows(TraceFormatException.class, () -> Trace.read(file));
    assertEquals(2, e.line(), e.getMessage());
    return e;
  }
}
