package org.elasticam.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JavaOptionsTest {

  @Test
  void splitsAsAShellWouldWithoutExpandingAnything() {
    assertEquals(List.of("-XX:+UseG1GC", "-Dgreeting=hello world", "-Dpath=$HOME/x", "a\"b", "c\\d", "it's", ""),
        JavaOptions.split("  -XX:+UseG1GC '-Dgreeting=hello world'\t-Dpath=$HOME/x \"a\\\"b\" \"c\\\\d\" it\\'s ''"));
    assertEquals(List.of(), JavaOptions.split("   "));
    assertEquals(List.of("-Da=1 2"), JavaOptions.split("-Da=\"1 2\""));
  }

  @Test
  void unclosedQuotesAreRefused() {
    assertEquals("a single quote is not closed",
        assertThrows(IllegalArgumentException.class, () -> JavaOptions.split("-Da='x")).getMessage());
    assertEquals("a double quote is not closed",
        assertThrows(IllegalArgumentException.class, () -> JavaOptions.split("-Da=\"x")).getMessage());
    assertThrows(IllegalArgumentException.class, () -> JavaOptions.split("x\\"));
  }

  @Test
  void theHeapAndStrayMarkersAreRefusedWithTheReason() {
    Set<String> placeholders = Set.of("APP_ID");
    assertNull(JavaOptions.problem("-XX:+UseSerialGC -Xlog:gc:file=<LOG_DIR>/{{APP_ID}}.log", "m", placeholders));
    assertEquals("sets the heap (-Xmx4g); set elasticam.executor.memory instead, which sizes the container with it",
        JavaOptions.problem("-Dx=1 -Xmx4g", "elasticam.executor.memory", placeholders));
    assertEquals("sets the heap (-XX:MaxHeapSize=1g); set m instead, which sizes the container with it",
        JavaOptions.problem("-XX:MaxHeapSize=1g", "m", placeholders));
    assertEquals("'-Da={{EXECUTOR_ID}}' holds a marker YARN would replace; the placeholders are {{APP_ID}} and"
        + " <LOG_DIR>", JavaOptions.problem("-Da={{EXECUTOR_ID}}", "m", placeholders));
    assertEquals("a double quote is not closed", JavaOptions.problem("\"", "m", placeholders));
  }

  @Test
  void theValidatorNamesTheKey() {
    List<ConfigProblem> p = ElasticConf.of(Map.of("elasticam.executor.extraJavaOptions", "-Xmx2g",
        "elasticam.yarn.am.extraJavaOptions", "-Da='unclosed")).validate();
    assertEquals(2, p.size(), p.toString());
    assertEquals("elasticam.executor.extraJavaOptions = '-Xmx2g': sets the heap (-Xmx2g); set elasticam.executor.memory"
        + " instead, which sizes the container with it", p.get(0).message());
    assertEquals("elasticam.yarn.am.extraJavaOptions = '-Da='unclosed': a single quote is not closed",
        p.get(1).message());
  }
}
