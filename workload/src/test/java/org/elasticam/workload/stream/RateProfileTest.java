package org.elasticam.workload.stream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Worked numbers for every kind of profile, and one clear line for every broken spec. */
class RateProfileTest {

  private static final double EXACT = 1e-9;

  @TempDir
  Path dir;

  private RateProfile parse(String spec) {
    return RateProfile.parse(spec, dir);
  }

  @Test
  void constantRateCountsRecordsByTheMillisecondAndRoundsToNearest() {
    RateProfile p = parse("const:100");
    assertAll(
        () -> assertEquals(100, p.ratePerSec(0), EXACT),
        () -> assertEquals(200, p.records(0, 2000)),
        () -> assertEquals(0, p.records(0, 4)),
        () -> assertEquals(1, p.records(0, 5)),
        () -> assertEquals(0, p.records(7000, 7000)),
        () -> assertEquals(List.of(), p.changePointsMs()),
        () -> assertEquals(OptionalLong.empty(), p.naturalLengthMs()),
        () -> assertEquals("const:100", p.spec()),
        () -> assertEquals("const:100", p.toString()));
  }

  @Test
  void decimalRates() {
    assertEquals(25, parse("const:12.5").records(0, 2000));
  }

  @Test
  void stepHoldsEachRateFromItsTimeToTheNext() {
    RateProfile p = parse("step:100@0,300@5min,100@15min");
    assertAll(
        () -> assertEquals(100, p.ratePerSec(299_999), EXACT),
        () -> assertEquals(300, p.ratePerSec(300_000), EXACT),
        () -> assertEquals(100, p.ratePerSec(900_000), EXACT),
        () -> assertEquals(100, p.ratePerSec(86_400_000), EXACT),
        () -> assertEquals(400, p.records(299_000, 301_000)),
        () -> assertEquals(100 * 300 + 300 * 600 + 100 * 600, p.records(0, 1_500_000)),
        () -> assertEquals(List.of(300_000L, 900_000L), p.changePointsMs()),
        // The last step runs as long as the one before it: 15 min + 10 min.
        () -> assertEquals(OptionalLong.of(1_500_000), p.naturalLengthMs()));
  }

  @Test
  void stepRateBeforeTheFirstTimeIsTheFirstRate() {
    RateProfile p = parse("step:50@10s,200@20");
    assertAll(
        () -> assertEquals(50, p.ratePerSec(0), EXACT),
        () -> assertEquals(200, p.ratePerSec(20_000), EXACT),
        () -> assertEquals(50 * 20 + 200 * 5, p.records(0, 25_000)),
        () -> assertEquals(List.of(20_000L), p.changePointsMs()),
        () -> assertEquals(OptionalLong.of(40_000), p.naturalLengthMs()));
  }

  @Test
  void stepsThatKeepTheRateAreNoChangePoints() {
    RateProfile p = parse("step:100@0,100@1min,200@2min,200@3min");
    assertEquals(List.of(120_000L), p.changePointsMs());
    assertEquals(OptionalLong.empty(), parse("step:100@0").naturalLengthMs());
  }

  @Test
  void timeUnits() {
    RateProfile p = parse("step:0@0,1@500ms,2@30s,3@5min,4@1h,5@7200,6@7200.5");
    assertAll(
        () -> assertEquals(0, p.ratePerSec(499), EXACT),
        () -> assertEquals(1, p.ratePerSec(500), EXACT),
        () -> assertEquals(2, p.ratePerSec(30_000), EXACT),
        () -> assertEquals(3, p.ratePerSec(300_000), EXACT),
        () -> assertEquals(4, p.ratePerSec(3_600_000), EXACT),
        () -> assertEquals(5, p.ratePerSec(7_200_000), EXACT),
        () -> assertEquals(6, p.ratePerSec(7_200_500), EXACT));
  }

  @Test
  void rampIsLinearThenHolds() {
    RateProfile p = parse("ramp:0-100@10s");
    assertAll(
        () -> assertEquals(50, p.ratePerSec(5000), EXACT),
        () -> assertEquals(100, p.ratePerSec(10_000), EXACT),
        () -> assertEquals(100, p.ratePerSec(60_000), EXACT),
        () -> assertEquals(500, p.records(0, 10_000)),
        () -> assertEquals(1500, p.records(0, 20_000)),
        // (50 + 100) / 2 × 5 s on the ramp, then 100 × 5 s flat.
        () -> assertEquals(875, p.records(5000, 15_000)),
        () -> assertEquals(List.of(), p.changePointsMs()));
  }

  @Test
  void downwardRamp() {
    RateProfile p = parse("ramp:300-100@1min");
    assertEquals(200, p.ratePerSec(30_000), EXACT);
    assertEquals(12_000, p.records(0, 60_000));
  }

  @Test
  void sineIntegratesAnalytically() {
    RateProfile p = parse("sine:200,100,10min");
    assertAll(
        () -> assertEquals(200, p.ratePerSec(0), 1e-6),
        () -> assertEquals(300, p.ratePerSec(150_000), 1e-6),
        () -> assertEquals(100, p.ratePerSec(450_000), 1e-6),
        () -> assertEquals(120_000, p.records(0, 600_000)),
        () -> assertEquals(10 * 120_000, p.records(0, 6_000_000)),
        // 200 × 300 s + 100 × (600 s / 2π) × (cos 0 − cos π) = 60,000 + 19,098.6.
        () -> assertEquals(79_099, p.records(0, 300_000)),
        () -> assertEquals(40_901, p.records(300_000, 600_000)));
  }

  @Test
  void sineWithAmplitudeEqualToMeanTouchesZero() {
    RateProfile p = parse("sine:10,10,4s");
    assertEquals(0, p.ratePerSec(3000), 1e-9);
    assertTrue(p.ratePerSec(3001) >= 0);
  }

  @Test
  void fileGivesOneRatePerSecondThenHoldsTheLast() throws IOException {
    Files.writeString(dir.resolve("rates.txt"), "# warm-up\n10\n\n  20 \n# peak\n30\n");
    RateProfile p = parse("file:rates.txt");
    assertAll(
        () -> assertEquals(10, p.ratePerSec(999), EXACT),
        () -> assertEquals(20, p.ratePerSec(1000), EXACT),
        () -> assertEquals(30, p.ratePerSec(2000), EXACT),
        () -> assertEquals(30, p.ratePerSec(100_000), EXACT),
        () -> assertEquals(60, p.records(0, 3000)),
        () -> assertEquals(5 + 10, p.records(500, 1500)),
        () -> assertEquals(60 + 2 * 30, p.records(0, 5000)),
        () -> assertEquals(15, p.records(2500, 3000)),
        () -> assertEquals(OptionalLong.of(3000), p.naturalLengthMs()),
        () -> assertEquals("file:rates.txt", p.spec()));
  }

  @Test
  void fileAtAnAbsolutePath(@TempDir Path other) throws IOException {
    Path file = other.resolve("r");
    Files.writeString(file, "7");
    assertEquals(7, parse("file:" + file).ratePerSec(0), EXACT);
  }

  @Test
  void negativeTimesAndBackwardIntervalsAreRefused() {
    RateProfile p = parse("const:1");
    assertThrows(IllegalArgumentException.class, () -> p.ratePerSec(-1));
    assertThrows(IllegalArgumentException.class, () -> p.records(-1, 5));
    assertThrows(IllegalArgumentException.class, () -> p.records(5, 4));
  }

  static Stream<Arguments> brokenSpecs() {
    return Stream.of(
        Arguments.of("", "expected KIND:ARGS with KIND one of const, step, ramp, sine, file"),
        Arguments.of("const", "expected KIND:ARGS with KIND one of const, step, ramp, sine, file"),
        Arguments.of("const:", "nothing after 'const:'"),
        Arguments.of("const:-5", "rate '-5' is negative"),
        Arguments.of("const:NaN", "rate 'NaN' is not a finite number"),
        Arguments.of("const:Infinity", "rate 'Infinity' is not a finite number"),
        Arguments.of("const:1e3", "rate '1e3' is not a non-negative decimal number"),
        Arguments.of("const:100abc", "rate '100abc' is not a non-negative decimal number"),
        Arguments.of("const:100 ", "rate '100 ' is not a non-negative decimal number"),
        Arguments.of("const:0x10", "rate '0x10' is not a non-negative decimal number"),
        Arguments.of("const:1000000001", "rate 1000000001 is above the limit of 1e9 records/s"),
        Arguments.of("const:" + "9".repeat(400), "rate " + "9".repeat(80) + "… is above the limit of 1e9 records/s"),
        Arguments.of("poisson:5", "unknown kind 'poisson' (expected const, step, ramp, sine or file)"),
        Arguments.of("CONST:5", "unknown kind 'CONST' (expected const, step, ramp, sine or file)"),
        Arguments.of("step:100", "step 1 '100': expected RATE@TIME"),
        Arguments.of("step:100@0,300@5min,", "step 3 '': expected RATE@TIME"),
        Arguments.of("step:@0", "step 1 rate is empty"),
        Arguments.of("step:100@", "step 1 time is empty"),
        Arguments.of("step:100@1min,300@30s", "step 2 time 30s is not after step 1's time"),
        Arguments.of("step:100@1min,300@60", "step 2 time 60 is not after step 1's time"),
        Arguments.of("step:100@0,300@5m", "step 2 time '5m' " + RateProfile.NOT_A_TIME),
        Arguments.of("step:100@0,300@-5s", "step 2 time '-5s' " + RateProfile.NOT_A_TIME),
        Arguments.of("step:100@0,300@5min@6min", "step 2 time '5min@6min' " + RateProfile.NOT_A_TIME),
        Arguments.of("step:100@0,300@721h", "step 2 time 721h is above the limit of 30 days"),
        Arguments.of("step:100@0.0001", "step 1 time 0.0001 is not a whole number of milliseconds"),
        Arguments.of("ramp:10@5s", "ramp rates '10': expected R1-R2"),
        Arguments.of("ramp:10-20", "ramp: expected R1-R2@TIME"),
        Arguments.of("ramp:10-20@0", "ramp time must be above 0"),
        Arguments.of("ramp:10--20@5s", "ramp end rate '-20' is negative"),
        Arguments.of("ramp:10-20@5sec", "ramp time '5sec' " + RateProfile.NOT_A_TIME),
        Arguments.of("sine:100,200,1min", "sine amplitude 200 is above the mean 100 (the rate would go below 0)"),
        Arguments.of("sine:100,50", "sine: expected MEAN,AMPLITUDE,PERIOD, found 2 parts"),
        Arguments.of("sine:100,50,1min,7", "sine: expected MEAN,AMPLITUDE,PERIOD, found 4 parts"),
        Arguments.of("sine:100,50,0", "sine period must be above 0"),
        Arguments.of("sine:100,,1min", "sine amplitude is empty"),
        Arguments.of("const:1\nboom", "rate '1?boom' is not a non-negative decimal number"),
        Arguments.of("file:", "nothing after 'file:'"));
  }

  @ParameterizedTest(name = "[{index}] {1}")
  @MethodSource("brokenSpecs")
  void brokenSpecGivesOneLineNamingTheBadPart(String spec, String reason) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(spec));
    assertEquals("rate profile '" + RateProfile.printable(spec) + "': " + reason, e.getMessage());
    assertFalse(e.getMessage().contains("\n"), e.getMessage());
  }

  @Test
  void missingSpec() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(null));
    assertEquals("rate profile: missing (expected e.g. const:100 or step:100@0,300@5min)", e.getMessage());
  }

  private String fileError(String content) throws IOException {
    Files.writeString(dir.resolve("r.txt"), content);
    return assertThrows(IllegalArgumentException.class, () -> parse("file:r.txt")).getMessage();
  }

  @Test
  void brokenFilesGiveOneLine() throws IOException {
    Path file = dir.resolve("r.txt");
    assertAll(
        () -> assertEquals("rate profile 'file:r.txt': file " + file + " line 2: rate 'abc' is not a non-negative "
            + "decimal number", fileError("1\nabc\n")),
        () -> assertEquals("rate profile 'file:r.txt': file " + file + " line 3: rate '-4' is negative",
            fileError("1\n\n-4\n")),
        () -> assertEquals("rate profile 'file:r.txt': file " + file + " line 1: rate 'NaN' is not a finite number",
            fileError("NaN")),
        () -> assertEquals("rate profile 'file:r.txt': file " + file + " holds no rates", fileError("# only\n\n")),
        () -> assertEquals("rate profile 'file:r.txt': file " + file + " holds no rates", fileError("")));
  }

  @Test
  void missingFileOrDirectoryGivesOneLine() throws IOException {
    String missing = assertThrows(IllegalArgumentException.class, () -> parse("file:nope.txt")).getMessage();
    assertEquals("rate profile 'file:nope.txt': cannot read " + dir.resolve("nope.txt") + ": no such file", missing);
    Files.createDirectory(dir.resolve("d"));
    String directory = assertThrows(IllegalArgumentException.class, () -> parse("file:d")).getMessage();
    assertTrue(directory.startsWith("rate profile 'file:d': cannot read " + dir.resolve("d") + ": "), directory);
    assertFalse(directory.contains("\n"), directory);
  }

  @Test
  void fileOfMoreThanAMillionLinesIsRefused() throws IOException {
    byte[] lines = "1\n".repeat(RateProfile.MAX_FILE_LINES + 1).getBytes(StandardCharsets.US_ASCII);
    Files.write(dir.resolve("big.txt"), lines);
    String error = assertThrows(IllegalArgumentException.class, () -> parse("file:big.txt")).getMessage();
    assertEquals("rate profile 'file:big.txt': file " + dir.resolve("big.txt") + " has more than 1000000 lines", error);
  }

  @Test
  void fileOfExactlyAMillionLinesIsRead() throws IOException {
    byte[] lines = "2\n".repeat(RateProfile.MAX_FILE_LINES).getBytes(StandardCharsets.US_ASCII);
    Files.write(dir.resolve("max.txt"), lines);
    RateProfile p = parse("file:max.txt");
    assertEquals(2L * RateProfile.MAX_FILE_LINES, p.records(0, RateProfile.MAX_FILE_LINES * 1000L));
    assertEquals(OptionalLong.of(RateProfile.MAX_FILE_LINES * 1000L), p.naturalLengthMs());
  }
}
