package org.elasticam.sim.streaming;

import org.elasticam.allocator.HeartbeatSchedule;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code simulate --streaming}: its outputs, and one clear line with exit 2 for every kind of bad input. */
class StreamingSimulateMainTest {

  private static final StreamingWorld WORLD = new StreamingWorld(200, 1000, 0.1, 500, 20, false, new HeartbeatSchedule.Intervals(50, 200, 3000));
  private static final String[] STEP = {"--streaming", "--batch-ms", "2000", "--rate", "step:100@0,300@5min,100@15min",
      "--work-per-record-us", "15000"};

  @TempDir
  Path dir;

  private String out;
  private String err;

  private int run(String... args) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code = StreamingSimulateMain.run(args, new PrintStream(o, true, StandardCharsets.UTF_8),
        new PrintStream(e, true, StandardCharsets.UTF_8), WORLD);
    out = o.toString(StandardCharsets.UTF_8);
    err = e.toString(StandardCharsets.UTF_8);
    return code;
  }

  private static String[] with(String[] base, String... more) {
    List<String> all = new ArrayList<>(List.of(base));
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }

  @Test
  void tableHasOneRowPerPolicyOverTheProfilesNaturalLength() {
    assertEquals(0, run(STEP), err);
    List<String> lines = out.lines().toList();
    assertAll(
        () -> assertEquals("", err),
        () -> assertEquals("rate step:100@0,300@5min,100@15min, batch 2000 ms", lines.get(0)),
        () -> assertTrue(lines.get(1).startsWith("policy  batches  late_batches  settle_batches  changes_last20  "
            + "executor_seconds  mean_processing_ratio"), lines.get(1)),
        () -> assertEquals(5, lines.size()),
        () -> assertTrue(lines.get(2).startsWith("rounds  750 "), lines.get(2)),
        () -> assertTrue(lines.get(3).startsWith("ratio   750 "), lines.get(3)),
        () -> assertTrue(lines.get(4).startsWith("model   750 "), lines.get(4)));
  }

  @Test
  void jsonHasOneObjectPerPolicy() throws IOException {
    assertEquals(0, run(with(STEP, "--json", "--policy", "model", "--batches", "300")), err);
    List<String> lines = out.lines().toList();
    assertEquals(1, lines.size(), out);
    JsonNode j = new ObjectMapper().readTree(lines.get(0));
    assertAll(
        () -> assertEquals("model", j.get("policy").asText()),
        () -> assertEquals("step:100@0,300@5min,100@15min", j.get("rate").asText()),
        () -> assertEquals(2000, j.get("batch_ms").asLong()),
        () -> assertEquals(300, j.get("batches").asInt()),
        () -> assertTrue(j.get("late_batches").isInt()),
        // 300 batches end at 600 s: the first change point only.
        () -> assertEquals(2, j.get("settle_batches").size()),
        () -> assertTrue(j.get("settle_batches").get(0).asInt() >= 0),
        () -> assertEquals(3, j.get("changes_last20").size()),
        () -> assertTrue(j.get("executor_seconds").asDouble() > 0),
        () -> assertTrue(j.get("mean_processing_ratio").isNumber()),
        () -> assertTrue(j.get("peak_executors").asInt() <= 20));
  }

  @Test
  void sameInputsSameOutput() {
    run(with(STEP, "--json"));
    String first = out;
    run(with(STEP, "--json"));
    assertEquals(first, out);
  }

  @Test
  void fileProfileRunsItsLength() throws IOException {
    Files.writeString(dir.resolve("rates.txt"), "100\n".repeat(10));
    assertEquals(0, run("--streaming", "--batch-ms", "2000", "--rate", "file:" + dir.resolve("rates.txt"), "--json",
        "--policy", "rounds"), err);
    assertTrue(out.contains("\"batches\":5,"), out);
  }

  @Test
  void flagsAndConfigurationReachThePolicies() {
    assertEquals(0, run(with(STEP, "--policy", "rounds", "--min-executors", "3", "--max-executors", "3",
        "--json")), err);
    assertTrue(out.contains("\"peak_executors\":3,"), out);
    assertEquals(0, run(with(STEP, "--policy", "rounds", "--json", "--conf",
        "elasticam.streaming.dynamicAllocation.maxExecutors=4")), err);
    assertTrue(out.contains("\"peak_executors\":4,"), out);
  }

  @Test
  void unknownKeysWarnButRun() {
    assertEquals(0, run(with(STEP, "--policy", "ratio",
        "--conf", "elasticam.streaming.dynamicAllocation.relaseRounds=3",
        "--conf", "elasticam.streaming.dynamicAllocation.policy=model")), err);
    assertTrue(err.contains("elasticam simulate: warning: unknown configuration key "
        + "elasticam.streaming.dynamicAllocation.relaseRounds"), err);
    assertTrue(err.contains("ignoring elasticam.streaming.dynamicAllocation.policy: --policy chooses"), err);
  }

  @Test
  void help() {
    assertEquals(0, run("--streaming", "--help"));
    assertTrue(out.startsWith("usage: bin/elasticam simulate --streaming --batch-ms N --rate PROFILE"), out);
  }

  static Stream<Arguments> badInput() {
    String[] noRate = {"--streaming", "--batch-ms", "2000"};
    String[] sine = {"--streaming", "--batch-ms", "2000", "--rate", "sine:200,100,10min"};
    return Stream.of(
        Arguments.of("--batch-ms N is required", new String[] {"--streaming", "--rate", "const:1"}),
        Arguments.of("--rate PROFILE is required", noRate),
        Arguments.of("--rate: rate profile 'bogus:1': unknown kind 'bogus'", with(noRate, "--rate", "bogus:1")),
        Arguments.of("--rate: rate profile 'const:-1': rate '-1' is negative", with(noRate, "--rate", "const:-1")),
        Arguments.of("--rate: rate profile 'file:nope.txt': cannot read nope.txt: no such file",
            with(noRate, "--rate", "file:nope.txt")),
        Arguments.of("--rate: rate profile 'const:1?x'", with(noRate, "--rate", "const:1\nx")),
        Arguments.of("--batches N is required: the rate profile 'sine:200,100,10min' has no natural length", sine),
        Arguments.of("--batches N is required: the rate profile's length of 1000 ms holds 0 batches",
            with(noRate, "--rate", "step:1@0,2@500ms")),
        Arguments.of("--batch-ms must be a whole number from 1 to 86400000, got '0'",
            new String[] {"--streaming", "--batch-ms", "0", "--rate", "const:1"}),
        Arguments.of("--batch-ms must be a whole number from 1 to 86400000, got '2s'",
            new String[] {"--streaming", "--batch-ms", "2s", "--rate", "const:1"}),
        Arguments.of("--batches must be a whole number from 1 to 1000000, got '0'", with(sine, "--batches", "0")),
        Arguments.of("--work-per-record-us must be a whole number from 0 to 1000000000, got '-1'",
            with(sine, "--work-per-record-us", "-1")),
        Arguments.of("1000000 batches of 3000 ms run longer than the 30 days",
            new String[] {"--streaming", "--batch-ms", "3000", "--rate", "const:1", "--batches", "1000000"}),
        Arguments.of("unknown streaming policy 'nope' (known: rounds, ratio, model, all)",
            with(sine, "--batches", "5", "--policy", "nope")),
        Arguments.of("--trace is for trace simulations", with(sine, "--trace", "x.jsonl")),
        Arguments.of("unknown option --bogus (see --streaming --help)", with(sine, "--bogus", "1")),
        Arguments.of("--json given twice", with(sine, "--json", "--json")),
        Arguments.of("--json takes no value", with(sine, "--json=yes")),
        Arguments.of("--max-executors needs a value", with(sine, "--max-executors")),
        Arguments.of("unexpected argument 'stray'", with(sine, "stray")),
        Arguments.of("--conf needs key=value, got 'x'", with(sine, "--conf", "x")),
        Arguments.of("--max-executors and --conf elasticam.streaming.dynamicAllocation.maxExecutors both given",
            with(sine, "--batches", "5", "--max-executors", "5", "--conf",
                "elasticam.streaming.dynamicAllocation.maxExecutors=6")),
        Arguments.of("invalid configuration: ", with(sine, "--batches", "5", "--min-executors", "5", "--max-executors",
            "2")),
        Arguments.of("invalid configuration: ", with(sine, "--batches", "5", "--conf",
            "elasticam.streaming.dynamicAllocation.enabled=false")),
        Arguments.of("invalid configuration: ", with(sine, "--batches", "5", "--conf",
            "elasticam.streaming.dynamicAllocation.reserveRate=2")),
        Arguments.of("a batch's work does not fit in a long", new String[] {"--streaming", "--batch-ms", "86400000",
            "--rate", "const:1000000000", "--batches", "1", "--work-per-record-us", "1000000000"}));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("badInput")
  void badInputGivesOneLineAndExitTwo(String expected, String[] args) {
    assertEquals(2, run(args), out + err);
    assertAll(
        () -> assertEquals(1, err.lines().count(), err),
        () -> assertTrue(err.startsWith("elasticam simulate: "), err),
        () -> assertTrue(err.contains(expected), err),
        () -> assertEquals("", out));
  }
}
