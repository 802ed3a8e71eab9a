package org.elasticam.am.client;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.elasticam.engine.scheduling.TaskErrors;
import org.elasticam.am.job.BuiltInJobs;
import org.elasticam.engine.job.DagPlan;
import org.elasticam.engine.job.JobPlan;
import org.elasticam.am.job.JobSpec;
import org.elasticam.api.Combiner;
import org.elasticam.api.KeyOrder;
import org.elasticam.api.Partitioner;
import org.elasticam.api.Stage;
import org.elasticam.api.Task;
import org.elasticam.conf.EditDistance;
import org.elasticam.io.commit.OutputCommit;

/**
 * A user job checked in the client before anything is sent, so that a mistake costs a second and
 * not a submission: the jar, the job's class (with the nearest names in the jar when it is not
 * there), the stages its {@code stages} returns (the AM asks again; the job's code runs in both),
 * and each stage's task class and shuffle partitioner, key order and combiner.
 */
final class UserJobCheck {

  private static final int SUGGESTIONS = 3;

  private UserJobCheck() {}

  static void check(JobSpec job, Path jar, org.apache.hadoop.conf.Configuration conf) throws UsageException {
    String className = job.required("class");
    if (!Files.isRegularFile(jar)) {
      throw new UsageException("user jar " + jar + " does not exist");
    }
    Set<String> classes = classesIn(jar);
    if (!classes.contains(className)) {
      throw new UsageException("class " + className + " is not in " + jar + didYouMean(className, classes));
    }
    try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()},
        UserJobCheck.class.getClassLoader())) {
      JobPlan plan = plan(job, loader, conf);
      if (plan instanceof DagPlan dag) {
        for (Stage s : dag.stages()) {
          checkStageClasses(s, loader, classes);
        }
        checkOutputs(dag.stages(), conf);
      }
    } catch (IOException e) {
      throw new UsageException("user jar " + jar + " cannot be read: " + e.getMessage());
    }
  }

  /** An output directory that exists refuses the job, unless the stage overwrites it. */
  private static void checkOutputs(List<Stage> stages, org.apache.hadoop.conf.Configuration conf)
      throws UsageException {
    for (Stage s : stages) {
      if (s.output() != null && !s.output().overwrite()) {
        org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path(s.output().dir());
        try {
          if (out.getFileSystem(conf).exists(out)) {
            throw new UsageException(new OutputCommit.OutputExistsException(out).getMessage());
          }
        } catch (IOException e) {
          throw new UsageException("cannot check the output " + out + ": " + e.getMessage());
        }
      }
    }
  }

  private static JobPlan plan(JobSpec job, ClassLoader loader, org.apache.hadoop.conf.Configuration conf)
      throws UsageException {
    try {
      return BuiltInJobs.planUserJob(job, loader, conf);
    } catch (IllegalArgumentException e) {
      throw new UsageException("the job could not be planned: " + e.getMessage());
    } catch (Exception | LinkageError e) {
      StringWriter trace = new StringWriter();
      e.printStackTrace(new PrintWriter(trace));
      throw new UsageException("the job could not be planned: its code threw " + TaskErrors.summary(trace.toString()));
    }
  }

  /** The stage's task class and its shuffle's partitioner, key order and combiner, when it names them. */
  static void checkStageClasses(Stage s, ClassLoader loader, Set<String> jarClasses) throws UsageException {
    checkClass(s, "runs task class", s.taskClass(), Task.class, loader, jarClasses);
    checkClass(s, "partitions its shuffle with", s.shuffle().partitionerClass(), Partitioner.class, loader,
        jarClasses);
    checkClass(s, "sorts its shuffle with", s.shuffle().keyOrderClass(), KeyOrder.class, loader, jarClasses);
    checkClass(s, "combines its shuffle with", s.shuffle().combinerClass(), Combiner.class, loader, jarClasses);
  }

  /** That {@code className} (none when empty) is in the jar or built in, and a {@code type}. */
  private static void checkClass(Stage s, String role, String className, Class<?> type, ClassLoader loader,
      Set<String> jarClasses) throws UsageException {
    if (className.isEmpty()) {
      return;
    }
    Class<?> c;
    try {
      c = Class.forName(className, false, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new UsageException("stage " + s.id() + " (" + s.name() + ") " + role + " " + className
          + ", which is neither in the user jar nor built in" + didYouMean(className, jarClasses));
    }
    if (!type.isAssignableFrom(c)) {
      throw new UsageException("stage " + s.id() + " (" + s.name() + ") " + role + " " + className
          + ", which does not implement " + type.getName());
    }
  }

  /** Binary names of the classes in a jar. */
  static Set<String> classesIn(Path jar) throws UsageException {
    Set<String> names = new TreeSet<>();
    try (JarFile j = new JarFile(jar.toFile())) {
      for (JarEntry e : java.util.Collections.list(j.entries())) {
        String n = e.getName();
        if (n.endsWith(".class") && !n.endsWith("module-info.class") && !n.startsWith("META-INF/")) {
          names.add(n.substring(0, n.length() - ".class".length()).replace('/', '.'));
        }
      }
    } catch (IOException e) {
      throw new UsageException("user jar " + jar + " cannot be read as a jar: " + e.getMessage());
    }
    return names;
  }

  /**
   * The names nearest to a wrong one: first a nested class written with a dot ({@code a.Outer.Inner}
   * for {@code a.Outer$Inner}) or the same simple name in another package or case, then the
   * fewest edits away.
   */
  static String didYouMean(String wanted, Set<String> candidates) {
    List<String> near = new ArrayList<>();
    String simple = simpleName(wanted);
    for (String c : candidates) {
      if (c.replace('$', '.').equalsIgnoreCase(wanted.replace('$', '.'))
          || simpleName(c).equalsIgnoreCase(simple)) {
        near.add(c);
      }
    }
    int limit = Math.max(3, wanted.length() / 3);
    candidates.stream().filter(c -> !near.contains(c) && !isAnonymous(c))
        .map(c -> new Object[] {c, EditDistance.between(wanted, c)})
        .filter(p -> (int) p[1] <= limit)
        .sorted(Comparator.comparingInt((Object[] p) -> (int) p[1]).thenComparing(p -> (String) p[0]))
        .forEach(p -> near.add((String) p[0]));
    if (near.isEmpty()) {
      return "";
    }
    return " (did you mean " + String.join(", ", near.subList(0, Math.min(SUGGESTIONS, near.size()))) + "?)";
  }

  private static String simpleName(String binaryName) {
    int cut = Math.max(binaryName.lastIndexOf('.'), binaryName.lastIndexOf('$'));
    return binaryName.substring(cut + 1);
  }

  private static boolean isAnonymous(String binaryName) {
    String s = simpleName(binaryName);
    return !s.isEmpty() && Character.isDigit(s.charAt(0));
  }
}
