package org.elasticam.sim;

import org.elasticam.report.Timeline;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The command: its outputs, and one clear line with exit 2 for every kind of bad input. */
class SimulateMainTest {

  @TempDir
  Path dir;

  private Path trace;
  private String out;
  private String err;

  @BeforeEach
  void writeTrace() {
    trace = Traces.write(dir, "small", Traces.stage(0, 0, List.of(), 2000, 3000),
        Traces.stage(1, 3500, List.of(0), 1000));
  }

  private int run(String... args) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code = SimulateMain.run(args, new PrintStream(o, true, StandardCharsets.UTF_8),
        new PrintStream(e, true, StandardCharsets.UTF_8));
    out = o.toString(StandardCharsets.UTF_8);
    err = e.toString(StandardCharsets.UTF_8);
    return code;
  }

  private void assertBadInput(String expectedInMessage, String... args) {
    assertEquals(2, run(args), out + err);
    assertEquals(1, err.lines().count(), err);
    assertTrue(err.startsWith("elasticam simulate: "), err);
    assertTrue(err.contains(expectedInMessage), err);
    assertEquals("", out);
  }

  @Test
  void badFlags() {
    assertBadInput("--trace F is required");
    assertBadInput("unknown option --bogus", "--trace", trace.toString(), "--bogus", "1");
    assertBadInput("unexpected argument 'extra'", "--trace", trace.toString(), "extra");
    assertBadInput("--grant-ms must be a whole number >= 0, got '-5'", "--trace", trace.toString(), "--grant-ms", "-5");
    assertBadInput("--capacity must be a whole number", "--trace", trace.toString(), "--capacity", "0");
    assertBadInput("--time-scale must be a positive number", "--trace", trace.toString(), "--time-scale", "0");
    assertBadInput("--start-contention must be a non-negative number", "--trace", trace.toString(),
        "--start-contention", "NaN");
    assertBadInput("--hosts needs a value", "--trace", trace.toString(), "--hosts");
    assertBadInput("--grant-ms given twice", "--trace", trace.toString(), "--grant-ms", "1", "--grant-ms=2");
    assertBadInput("unknown policy 'fastest'", "--trace", trace.toString(), "--policy", "fastest");
    assertBadInput("--conf needs key=value", "--trace", trace.toString(), "--conf", "novalue");
  }

  @Test
  void badConfiguration() {
    assertBadInput("elasticam.dynamicAllocation.minExecutors = '-1': must be >= 0", "--trace", trace.toString(),
        "--conf", "elasticam.dynamicAllocation.minExecutors=-1");
    assertBadInput("elasticam.dynamicAllocation.enabled", "--trace", trace.toString(),
        "--conf", "elasticam.dynamicAllocation.enabled=false");
  }

  @ParameterizedTest
  @ValueSource(strings = {"missing", "empty", "broken", "directory"})
  void badTraceFiles(String kind) throws Exception {
    Path f = switch (kind) {
      case "missing" -> dir.resolve("nope.trace.jsonl");
      case "empty" -> Files.writeString(dir.resolve("empty.trace.jsonl"), "");
      case "broken" -> Files.writeString(dir.resolve("broken.trace.jsonl"), "{\"stage_id\": 0,\n");
      default -> Files.createDirectory(dir.resolve("d.trace.jsonl"));
    };
    assertBadInput(kind.equals("missing") || kind.equals("directory") ? "cannot read the trace" : "bad trace: ",
        "--trace", f.toString());
  }

  @Test
  void helpIsUsageOnStdout() {
    assertEquals(0, run("--help"));
    assertTrue(out.startsWith("usage: bin/elasticam simulate --trace F"), out);
    assertEquals("", err);
  }

  @Test
  void unknownKeysAreWarnedAboutNotFatal() {
    assertEquals(0, run("--trace", trace.toString(), "--policy", "spark", "--conf",
        "elasticam.dynamicAllocation.executorIdleTimout=5s"));
    assertTrue(err.contains("warning: unknown configuration key elasticam.dynamicAllocation.executorIdleTimout;"
        + " did you mean elasticam.dynamicAllocation.executorIdleTimeout?"), err);
  }

  @Test
  void jsonIsOneObjectPerPolicy() throws Exception {
    assertEquals(0, run("--trace", trace.toString(), "--json", "--policy", "all"), err);
    List<String> lines = out.lines().toList();
    List<String> policies = new ArrayList<>(SimulateMain.policies("all"));
    assertEquals(policies.size(), lines.size());
    ObjectMapper json = new ObjectMapper();
    for (int i = 0; i < lines.size(); i++) {
      JsonNode o = json.readTree(lines.get(i));
      assertEquals(List.of("policy", "trace", "makespan_ms", "executor_seconds", "idle_executor_seconds",
          "time_to_full_parallelism_ms", "peak_executors", "requests_added", "requests_cancelled", "executors_killed"),
          iterable(o));
      assertEquals(policies.get(i), o.get("policy").asText());
      assertEquals("small", o.get("trace").asText());
    }
  }

  @Test
  void tableAndOutputFiles() throws Exception {
    Path outDir = dir.resolve("out");
    assertEquals(0, run("--trace", trace.toString(), "--policy", "spark", "--out", outDir.toString(),
        "--grant-ms", "100", "--start-ms", "500", "--capacity", "3", "--heartbeat-ms", "1000", "--hosts", "2"), err);
    assertTrue(out.startsWith("trace small\npolicy "), out);
    assertTrue(out.lines().skip(2).findFirst().orElseThrow().startsWith("spark "), out);
    List<String> log = Files.readAllLines(outDir.resolve("small.spark.jsonl"));
    assertTrue(log.get(0).startsWith("{\"ts\":" + EventLogSink.EPOCH_BASE_MS + ",\"event\":\"app_start\""), log.get(0));
    assertTrue(log.get(log.size() - 1).contains("\"event\":\"app_end\""));
    List<String> csv = Files.readAllLines(outDir.resolve("small.spark.csv"));
    assertEquals(Timeline.CSV_HEADER, csv.get(0));
    assertTrue(csv.size() > 3);
    String svg = Files.readString(outDir.resolve("small.spark.svg"));
    assertFalse(svg.contains("<script"));
    DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(outDir.resolve("small.spark.svg").toFile());
  }

  private static List<String> iterable(JsonNode o) {
    List<String> names = new ArrayList<>();
    o.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
