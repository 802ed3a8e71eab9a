package org.elasticam.executor;

import java.io.File;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.jar.JarFile;

/**
 * The executor's classpath in two steps. The JVM starts with our jar and the classpath's
 * directories only; the cluster's jars (150-250 on a real cluster: Hadoop and everything it
 * depends on) come later. Any lookup that scans the classpath (slf4j's search for its binding,
 * gRPC's and the JDK's service lookups) opens every jar on it, and a class missing from the first
 * entries is looked for in all the others: on the embedded cluster's 187-entry classpath that was
 * about 0.15 s of CPU before an executor could register, while nothing on the way to registration
 * needs Hadoop (measured: BENCHMARKS.md, "the start-up classpath").
 *
 * <p>This class is a Java agent ({@code -javaagent} on our own jar, {@code Premain-Class}), because
 * {@link Instrumentation#appendToSystemClassLoaderSearch} is the JDK's supported way to add jars to
 * the class loader that loaded the executor: one copy of every class, as with a plain classpath.
 * Before {@code main} it adds the logging jars (slf4j and its binding), which the executor's first
 * line needs. {@link #complete} adds every other jar, in the classpath's order; the executor calls
 * it once it has registered, and every path that needs the cluster's classes (a task, new delegation
 * tokens, the control plane's TLS settings, the driver's endpoint file) waits for it first. A class
 * looked up before then and not found would stay not found, so nothing else may run first.
 *
 * <p>Without the agent (the AM did not ask for it, or the JVM was started another way) the whole
 * classpath is there from the start and {@link #complete} does nothing.
 */
public final class StartupClassPath {

  private static volatile StartupClassPath installed;

  private final Instrumentation instrumentation;
  private final List<Path> later;
  private final List<String> problems = new ArrayList<>();
  private final int early;
  /** Written under the monitor; read without it first, as every task launch asks. */
  private volatile boolean completed;

  private StartupClassPath(Instrumentation instrumentation, List<Path> jars) {
    this.instrumentation = instrumentation;
    List<Path> now = new ArrayList<>();
    List<Path> rest = new ArrayList<>();
    for (Path jar : jars) {
      (neededAtStart(jar.getFileName().toString()) ? now : rest).add(jar);
    }
    append(now);
    this.early = now.size();
    this.later = rest;
  }

  /** Runs before {@code main}: nothing here may log or touch a class outside the JDK. */
  public static void premain(String args, Instrumentation instrumentation) {
    String classPath = System.getenv(org.elasticam.conf.StartupClassPathEnv.TASK_CLASSPATH);
    if (classPath != null && !classPath.isBlank()) {
      install(instrumentation, classPath);
    }
  }

  static void install(Instrumentation instrumentation, String classPath) {
    installed = new StartupClassPath(instrumentation, jars(classPath));
  }

  /**
   * Adds the cluster's jars if they are not there yet, once; every later call returns at once.
   *
   * @return the jars added by this call (0 after the first, or without the agent)
   */
  public static int complete() {
    StartupClassPath s = installed;
    if (s == null || s.completed) {
      return 0;
    }
    synchronized (s) {
      if (s.completed) {
        return 0;
      }
      s.append(s.later);
      s.completed = true;
      return s.later.size();
    }
  }

  /**
   * What happened, for the executor's log once logging is up: how many jars were held back, and
   * the entries that could not be added (a file that is not a jar, say) with why.
   */
  public static String describe() {
    StartupClassPath s = installed;
    if (s == null) {
      return "the whole classpath from the start";
    }
    synchronized (s) {
      return s.early + " logging jars at start, " + s.later.size() + " more jars "
          + (s.completed ? "added after registering" : "held back until registered")
          + (s.problems.isEmpty() ? "" : "; not added: " + String.join("; ", s.problems));
    }
  }

  private void append(List<Path> jars) {
    for (Path jar : jars) {
      try {
        // The loader keeps the file open from here on, as it would for a jar on the classpath.
        instrumentation.appendToSystemClassLoaderSearch(new JarFile(jar.toFile()));
      } catch (IOException | RuntimeException e) {
        problems.add(jar + ": " + e.getMessage());
      }
    }
  }

  /**
   * The jars a classpath names, in the JVM's order: an entry ending in {@code *} stands for the
   * {@code .jar} and {@code .JAR} files in its directory, as the {@code java} launcher expands it;
   * directories and entries that do not exist are left out (directories stay on the JVM's own
   * classpath, as the agent can only add jars); each jar once.
   */
  static List<Path> jars(String classPath) {
    Set<Path> jars = new LinkedHashSet<>();
    for (String entry : classPath.split(File.pathSeparator)) {
      if (entry.isEmpty()) {
        continue;
      }
      if (entry.equals("*") || entry.endsWith(File.separator + "*")) {
        Path dir = Path.of(entry.substring(0, entry.length() - 1).isEmpty() ? "." : entry.substring(0,
            entry.length() - 1));
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
          for (Path f : files) {
            if (isJarName(f.getFileName().toString()) && Files.isRegularFile(f)) {
              found.add(f);
            }
          }
        } catch (IOException e) {
          continue; // the launcher skips a wildcard it cannot list, too
        }
        jars.addAll(found); // in the directory's order, as the launcher lists it
      } else {
        Path p = Path.of(entry);
        if (Files.isRegularFile(p)) {
          jars.add(p);
        }
      }
    }
    return new ArrayList<>(jars);
  }

  private static boolean isJarName(String name) {
    return name.endsWith(".jar") || name.endsWith(".JAR");
  }

  /** slf4j, its binding and the logging library behind it: the executor logs from its first step. */
  static boolean neededAtStart(String jarName) {
    String n = jarName.toLowerCase(Locale.ROOT);
    return n.startsWith("slf4j-") || n.startsWith("log4j-") || n.startsWith("reload4j-") || n.startsWith("logback-");
  }
}
