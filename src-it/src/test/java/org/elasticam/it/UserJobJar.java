package org.elasticam.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Builds a user job jar the way a user would: sources compiled against the published job API
 * (elasticam-api, and elasticam-io with the Hadoop it needs) only, packed into a jar of their own
 * that is not on any classpath of ours.
 */
final class UserJobJar {

  private static final String JOB = String.join("\n",
      "package it.user;",
      "import java.util.List;",
      "import java.util.Map;",
      "import org.elasticam.api.*;",
      "public class HelloJob implements Job {",
      "  public List<Stage> stages(String[] args) {",
      "    int n = Integer.parseInt(args[0]);",
      "    return List.of(Stage.builder(0, \"hello\", HelloTask.class).tasks(n).build(),",
      "        Stage.builder(1, \"bye\", HelloTask.class).parents(0).task(TaskSpec.of(Map.of(\"last\", \"true\"))).build());",
      "  }",
      "}");

  private static final String TASK = String.join("\n",
      "package it.user;",
      "import java.nio.file.Files;",
      "import org.elasticam.api.*;",
      "public class HelloTask implements Task {",
      "  public void run(TaskContext ctx) throws Exception {",
      "    Files.writeString(ctx.scratchDir().resolve(\"hello\"), \"hello from \" + ctx.host());",
      "    if (!Files.readString(ctx.scratchDir().resolve(\"hello\")).startsWith(\"hello\")) throw new IllegalStateException();",
      "    Thread.sleep(10);",
      "  }",
      "}");

  /** One stage whose tasks all prefer the host given: {@code <host> <tasks> <sleepMs>}. */
  private static final String PLACED_JOB = String.join("\n",
      "package it.user;",
      "import java.util.List;",
      "import java.util.Map;",
      "import org.elasticam.api.*;",
      "public class PlacedJob implements Job {",
      "  public List<Stage> stages(String[] args) {",
      "    Stage.Builder b = Stage.builder(0, \"placed on \" + args[0], NapTask.class);",
      "    for (int i = 0; i < Integer.parseInt(args[1]); i++) {",
      "      b.task(new TaskSpec(Map.of(\"ms\", args[2]), List.of(args[0])));",
      "    }",
      "    return List.of(b.build());",
      "  }",
      "}");

  private static final String NAP_TASK = String.join("\n",
      "package it.user;",
      "import org.elasticam.api.*;",
      "public class NapTask implements Task {",
      "  public void run(TaskContext ctx) throws Exception {",
      "    Thread.sleep(Long.parseLong(ctx.params().get(\"ms\")));",
      "  }",
      "}");

  private UserJobJar() {}

  static Path build(Path dir) throws IOException {
    return build(dir, "hello-job.jar", java.util.Map.of("HelloJob", JOB, "HelloTask", TASK, "PlacedJob", PLACED_JOB,
        "NapTask", NAP_TASK));
  }

  /** A jar of the given sources of package {@code it.user}, by class name. */
  static Path build(Path dir, String jarName, java.util.Map<String, String> sources) throws IOException {
    Path src = dir.resolve("src/it/user");
    Path classes = dir.resolve("classes");
    Files.createDirectories(src);
    Files.createDirectories(classes);
    String classpath = String.join(java.io.File.pathSeparator,
        Path.of("..", "api", "target", "classes").toAbsolutePath().toString(),
        Path.of("..", "io", "target", "classes").toAbsolutePath().toString(),
        // Hadoop's own jars, for the io module's types, from this test's classpath: nothing of ours.
        java.util.Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
            .filter(e -> Path.of(e).getFileName().toString().startsWith("hadoop-"))
            .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator)));
    java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("-d", classes.toString(), "-classpath",
        classpath));
    for (var e : sources.entrySet()) {
      Path f = src.resolve(e.getKey() + ".java");
      Files.writeString(f, e.getValue());
      args.add(f.toString());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int rc = javac.run(null, null, null, args.toArray(new String[0]));
    if (rc != 0) {
      throw new IllegalStateException("compiling the user job failed");
    }
    Path jar = dir.resolve(jarName);
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar)); Stream<Path> files = Files.walk(classes)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        out.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
        Files.copy(f, out);
        out.closeEntry();
      }
    }
    return jar.toAbsolutePath();
  }

}
