package org.elasticam.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The shared option-value parsing: values accepted, and the one line for each bad one. */
class ArgValuesTest {

  /** The caller's own usage exception, as the parsers pass theirs. */
  static final class Bad extends Exception {
    private static final long serialVersionUID = 1L;

    Bad(String message) {
      super(message);
    }
  }

  private static String message(Executable e) {
    return assertThrows(Bad.class, e).getMessage();
  }

  @Test
  void wholeNumbersSayTheirRangeAsItIs() throws Bad {
    assertEquals(7, ArgValues.number("--n", " 7 ", 1, 10, Bad::new));
    assertEquals("--n must be a whole number from 1 to 10, got '0'",
        message(() -> ArgValues.number("--n", "0", 1, 10, Bad::new)));
    assertEquals("--n must be a whole number >= 0, got '-5'",
        message(() -> ArgValues.number("--n", "-5", 0, Long.MAX_VALUE / 4, Bad::new)));
    assertEquals("--seed must be a whole number, got 'x'",
        message(() -> ArgValues.number("--seed", "x", Long.MIN_VALUE, Long.MAX_VALUE, Bad::new)));
  }

  @Test
  void decimalsArePositiveOrNonNegativeAndFinite() throws Bad {
    assertEquals(0.0, ArgValues.decimal("--x", "0", false, Bad::new));
    assertEquals("--x must be a positive number, got '0'", message(() -> ArgValues.decimal("--x", "0", true, Bad::new)));
    assertEquals("--x must be a non-negative number, got 'NaN'",
        message(() -> ArgValues.decimal("--x", "NaN", false, Bad::new)));
  }

  @Test
  void pathsAreNotBlank() throws Bad {
    assertEquals(Path.of("a/b"), ArgValues.path("--out", "a/b", Bad::new));
    assertEquals("--out needs a file path, got ' '", message(() -> ArgValues.path("--out", " ", Bad::new)));
  }

  @Test
  void confTakesKeyEqualsValueOncePerKey() throws Bad {
    Map<String, String> conf = new LinkedHashMap<>();
    ArgValues.conf(conf, " a.b = 1 ", Bad::new);
    assertEquals(Map.of("a.b", "1"), conf);
    assertEquals("--conf needs key=value, got 'x'", message(() -> ArgValues.conf(conf, "x", Bad::new)));
    assertEquals("--conf a.b given twice", message(() -> ArgValues.conf(conf, "a.b=2", Bad::new)));
  }
}
