package org.elasticam.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ValueParsingTest {

  @ParameterizedTest
  @CsvSource({
      "500ms, 500", "60s, 60000", "2min, 120000", "1h, 3600000", "1d, 86400000",
      "'  30s ', 30000", "250, 250", "0, 0", "10 s, 10000"
  })
  void durationsWithBareMilliseconds(String text, long expectedMs) {
    assertEquals(Duration.ofMillis(expectedMs), Durations.parse(text, ChronoUnit.MILLIS));
  }

  @Test
  void bareNumbersTakeTheKeysUnit() {
    assertEquals(Duration.ofSeconds(5), Durations.parse("5", ChronoUnit.SECONDS));
    assertEquals(Duration.ofSeconds(60), ValueType.SECONDS.parse("60"));
    assertEquals(Duration.ofMillis(60), ValueType.MILLIS.parse("60"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"inf", "infinite", "Infinity", "never"})
  void infiniteDurations(String text) {
    Duration d = Durations.parse(text, ChronoUnit.SECONDS);
    assertTrue(Durations.isInfinite(d));
    assertEquals("infinite", Durations.format(d));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "abc", "10 parsecs", "ms", "1.5s", "--1s"})
  void badDurationsSayWhy(String text) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Durations.parse(text, ChronoUnit.MILLIS));
    assertTrue(e.getMessage().contains("duration"), e.getMessage());
  }

  @ParameterizedTest
  @CsvSource({"1.5s, 1500000000", "0.25h, 900000000000", "2.5ms, 2500000", "0.5, 500000000", "3, 3000000000"})
  void decimalDurationsAreExact(String text, long expectedNanos) {
    assertEquals(Duration.ofNanos(expectedNanos), Durations.parseDecimal(text, ChronoUnit.SECONDS));
  }

  @ParameterizedTest
  @ValueSource(strings = {"1.s", ".5s", "1.2.3s", "0.0000000001s", "1.5 parsecs"})
  void badDecimalDurationsSayWhy(String text) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Durations.parseDecimal(text, ChronoUnit.SECONDS));
    assertTrue(e.getMessage().contains("duration") || e.getMessage().contains("nanoseconds"), e.getMessage());
  }

  @Test
  void hugeDurationsSaturateToInfinite() {
    assertTrue(Durations.isInfinite(Durations.parse("99999999999999999d", ChronoUnit.MILLIS)));
  }

  @Test
  void deadlinesSaturateInsteadOfOverflowing() {
    assertEquals(Long.MAX_VALUE, Durations.deadline(1_000L, Durations.INFINITE));
    assertEquals(Long.MAX_VALUE, Durations.deadline(Long.MAX_VALUE - 5, Duration.ofMillis(10)));
    assertEquals(1_500L, Durations.deadline(1_000L, Duration.ofMillis(500)));
  }

  @Test
  void durationsFormatInTheirShortestExactForm() {
    assertEquals("500ms", Durations.format(Duration.ofMillis(500)));
    assertEquals("60s", Durations.format(Duration.ofSeconds(60)));
    assertEquals("2min", Durations.format(Duration.ofMinutes(2)));
    assertEquals("0s", Durations.format(Duration.ZERO));
  }

  @ParameterizedTest
  @CsvSource({"512m, 512", "4g, 4096", "1024k, 1", "2048, 2048", "4GB, 4096", "1gib, 1024", "1t, 1048576"})
  void sizes(String text, long expectedMib) {
    assertEquals(expectedMib, ValueType.MEBIBYTES.parse(text).mebibytes());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "m", "4x", "-1g", "1.5g", "99999999999999999999g"})
  void badSizesSayWhy(String text) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ValueType.MEBIBYTES.parse(text));
    assertTrue(e.getMessage().contains("size"), e.getMessage());
  }

  @Test
  void sizesRoundUpToWholeMebibytes() {
    assertEquals(1, ByteSize.parse("1", 1).mebibytes());
    assertEquals("384m", ByteSize.ofMebibytes(384).toString());
    assertEquals("4g", ByteSize.ofMebibytes(4096).toString());
  }

  @Test
  void enumsIgnoreCaseAndListTheChoices() {
    assertEquals(BatchPolicy.ELASTIC, ValueType.oneOf(BatchPolicy.class).parse(" Elastic "));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ValueType.oneOf(BatchPolicy.class).parse("greedy"));
    assertEquals("not one of spark|elastic", e.getMessage());
  }

  @Test
  void booleansAreStrict() {
    assertEquals(true, ValueType.BOOLEAN.parse("TRUE"));
    assertThrows(IllegalArgumentException.class, () -> ValueType.BOOLEAN.parse("yes"));
  }
}
