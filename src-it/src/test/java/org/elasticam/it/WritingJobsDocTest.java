package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * docs/writing-jobs.md's first job is the code its commands build: the Java block compiles against
 * today's API (the same extraction the page's own {@code sed} does), and the run command names the
 * class it declares. TypedShuffleIT runs the same API on the embedded cluster.
 */
class WritingJobsDocTest {

  private static final Path DOC = Path.of("..", "docs", "writing-jobs.md").toAbsolutePath().normalize();

  @Test
  void theFirstJobCompilesAndItsCommandRunsTheClassItDeclares() throws IOException {
    List<String> lines = Files.readAllLines(DOC);
    int from = lines.indexOf("package example;");
    assertTrue(from > 0, "the page has the job's source");
    int to = from;
    while (!lines.get(to).startsWith("```")) {
      to++;
    }
    String source = String.join("\n", lines.subList(from, to));
    Path jar = UserJobJar.build(Path.of("target", "writing-jobs"), "sums.jar", Map.of("Sums", source));
    try (JarFile j = new JarFile(jar.toFile())) {
      assertTrue(j.getEntry("example/Sums.class") != null, "the job's class is in the jar");
      assertTrue(j.getEntry("example/Sums$Parse.class") != null && j.getEntry("example/Sums$Sum.class") != null);
    }
    String run = lines.stream().filter(l -> l.startsWith("bin/elasticam run ")).findFirst().orElseThrow();
    assertTrue(run.contains("--class example.Sums "), run);
    String javac = lines.stream().filter(l -> l.startsWith("javac ")).findFirst().orElseThrow();
    String[] classpath = javac.split(" ")[2].split(":");
    assertEquals("api/target/elasticam-api-" + projectVersion() + ".jar", classpath[0], "the jar the build makes");
    assertEquals("io/target/elasticam-io-" + projectVersion() + ".jar", classpath[1], "the jar the build makes");
    assertEquals("$(cat", classpath[2], "Hadoop's classpath as bin/elasticam reads it: " + javac);
    assertTrue(javac.contains("$(cat embedded/target/classpath.txt)"), javac);
  }

  private static String projectVersion() throws IOException {
    String pom = Files.readString(Path.of("..", "api", "pom.xml"));
    int at = pom.indexOf("<version>");
    return pom.substring(at + "<version>".length(), pom.indexOf("</version>", at));
  }
}
