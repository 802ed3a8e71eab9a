package org.elasticam.engine.scheduling;

import java.util.List;
import java.util.Map;

/**
 * One line from a failed task's stack trace, for diagnostics, the event log and the client's
 * summary: the exception, the first frame of the task's own code (the frames above it are usually
 * the JDK's: {@code Integer.parseInt} says nothing about where the bad input came from), and the
 * root cause when it differs. The full trace stays in the executor's log.
 */
public final class TaskErrors {

  /** Frames of the JDK and of the runtime around a task, never the code that failed. */
  private static final List<String> RUNTIME_PACKAGES = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.",
      "org.elasticam.executor.", "org.elasticam.shaded.", "org.elasticam.am.job.", "io.grpc.", "com.google.");

  private static final String BUILT_IN_TASKS = "org.elasticam.executor.tasks.";

  /** Longest summary: a line, not a page. */
  static final int MAX_CHARS = 600;
  private static final int MAX_PARAM_CHARS = 300;

  private TaskErrors() {}

  /** {@code Exception: message at Class.method(File.java:12); caused by Root: message}. */
  public static String summary(String trace) {
    List<String> lines = trace.strip().lines().toList();
    if (lines.isEmpty()) {
      return "(no message)";
    }
    StringBuilder b = new StringBuilder(shortName(lines.get(0).strip()));
    String frame = ownFrame(lines);
    if (frame != null) {
      b.append(" at ").append(frame);
    }
    String cause = rootCause(lines);
    if (cause != null) {
      b.append("; caused by ").append(shortName(cause));
    }
    return cap(b.toString(), MAX_CHARS);
  }

  /** The summary and what the task was given, for a message that says which input failed. */
  public static String withParams(String trace, Map<String, String> params) {
    String s = summary(trace);
    return params.isEmpty() ? s : s + "; task parameters " + cap(new java.util.TreeMap<>(params).toString(),
        MAX_PARAM_CHARS);
  }

  /** The first frame of code that is not the JDK's or the runtime's, as {@code Class.method(File.java:N)}. */
  static String ownFrame(List<String> lines) {
    String first = null;
    for (String l : lines.subList(1, lines.size())) {
      String t = l.strip();
      if (t.startsWith("Caused by:") || t.startsWith("Suppressed:")) {
        break;
      }
      if (!t.startsWith("at ")) {
        continue;
      }
      String frame = withoutLoader(t.substring(3));
      first = first == null ? frame : first;
      if (!isRuntime(frame)) {
        return frame;
      }
    }
    return first;
  }

  private static boolean isRuntime(String frame) {
    // The built-in tasks are the task's own code for the built-in jobs.
    return RUNTIME_PACKAGES.stream().anyMatch(frame::startsWith) && !frame.startsWith(BUILT_IN_TASKS);
  }

  /** {@code java.base/java.lang.Integer.parseInt(…)} and {@code app//a.B.run(…)} without the loader and module. */
  private static String withoutLoader(String frame) {
    int paren = frame.indexOf('(');
    int slash = frame.lastIndexOf('/', paren < 0 ? frame.length() : paren);
    return slash < 0 ? frame : frame.substring(slash + 1);
  }

  private static String rootCause(List<String> lines) {
    String cause = null;
    for (String l : lines) {
      String t = l.strip();
      if (t.startsWith("Caused by: ")) {
        cause = t.substring("Caused by: ".length());
      }
    }
    return cause;
  }

  /** {@code java.lang.IllegalStateException: x} as {@code IllegalStateException: x}; other packages kept. */
  private static String shortName(String headline) {
    int colon = headline.indexOf(':');
    String type = colon < 0 ? headline : headline.substring(0, colon);
    if (type.contains(" ")) {
      return headline;
    }
    for (String p : List.of("java.lang.", "java.io.", "java.util.", "java.nio.file.")) {
      if (type.startsWith(p) && type.indexOf('.', p.length()) < 0) {
        return headline.substring(p.length());
      }
    }
    return headline;
  }

  private static String cap(String s, int max) {
    String oneLine = s.replace('\n', ' ').replace('\r', ' ');
    return oneLine.length() <= max ? oneLine : oneLine.substring(0, max - 1) + "…";
  }
}
