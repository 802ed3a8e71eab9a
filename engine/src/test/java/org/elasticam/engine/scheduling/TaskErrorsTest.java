package org.elasticam.engine.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TaskErrorsTest {

  /** As an executor reports it: the JDK's frames first, then the task's, then the runtime's. */
  private static final String PARSE = String.join("\n",
      "java.lang.NumberFormatException: For input string: \"x7\"",
      "\tat java.base/java.lang.NumberFormatException.forInputString(NumberFormatException.java:67)",
      "\tat java.base/java.lang.Integer.parseInt(Integer.java:668)",
      "\tat app//com.example.GroupSum$MapTask.parse(GroupSum.java:88)",
      "\tat app//com.example.GroupSum$MapTask.run(GroupSum.java:42)",
      "\tat org.elasticam.executor.TaskRunner.run(TaskRunner.java:90)",
      "\tat java.base/java.lang.Thread.run(Thread.java:840)");

  @Test
  void theExceptionAndTheFirstFrameOfTheTasksOwnCode() {
    assertEquals("NumberFormatException: For input string: \"x7\" at com.example.GroupSum$MapTask.parse(GroupSum.java:88)",
        TaskErrors.summary(PARSE));
  }

  @Test
  void theRootCauseWhenThereIsOne() {
    String wrapped = String.join("\n",
        "java.lang.RuntimeException: java.io.UncheckedIOException: cannot read part-3",
        "\tat app//com.example.Load.run(Load.java:20)",
        "\tat org.elasticam.executor.TaskRunner.run(TaskRunner.java:90)",
        "Caused by: java.io.UncheckedIOException: cannot read part-3",
        "\tat app//com.example.Load.open(Load.java:31)",
        "Caused by: java.nio.file.NoSuchFileException: /data/part-3",
        "\tat java.base/sun.nio.fs.UnixException.translateToIOException(UnixException.java:92)");
    assertEquals("RuntimeException: java.io.UncheckedIOException: cannot read part-3 at com.example.Load.run(Load.java:20)"
        + "; caused by NoSuchFileException: /data/part-3", TaskErrors.summary(wrapped));
  }

  @Test
  void builtInTasksAreTheirJobsOwnCodeAndAllRuntimeFramesFallBackToTheFirst() {
    String builtIn = "java.lang.IllegalStateException: injected failure\n"
        + "\tat org.elasticam.executor.tasks.SleepTask.run(SleepTask.java:30)\n"
        + "\tat org.elasticam.executor.TaskRunner.run(TaskRunner.java:90)";
    assertEquals("IllegalStateException: injected failure at org.elasticam.executor.tasks.SleepTask.run(SleepTask.java:30)",
        TaskErrors.summary(builtIn));
    assertEquals("OutOfMemoryError: Java heap space at java.util.Arrays.copyOf(Arrays.java:3512)",
        TaskErrors.summary("java.lang.OutOfMemoryError: Java heap space\n\tat java.base/java.util.Arrays.copyOf(Arrays.java:3512)"));
  }

  @Test
  void oneLineOfBoundedLengthWhateverTheInput() {
    assertEquals("(no message)", TaskErrors.summary("  \n"));
    assertEquals("a.B: x", TaskErrors.summary("a.B: x\ry"), "the first line of a headline broken by a CR");
    String huge = "java.lang.IllegalArgumentException: " + "z".repeat(10_000);
    String s = TaskErrors.summary(huge);
    assertTrue(s.length() <= TaskErrors.MAX_CHARS, s.length() + "");
    assertTrue(s.startsWith("IllegalArgumentException: zzz"), s);
  }

  @Test
  void theParametersSayWhichInputFailed() {
    assertEquals("NumberFormatException: For input string: \"x7\" at com.example.GroupSum$MapTask.parse(GroupSum.java:88)"
        + "; task parameters {file=/data/b.csv, offset=0}",
        TaskErrors.withParams(PARSE, Map.of("offset", "0", "file", "/data/b.csv")));
  }
}
