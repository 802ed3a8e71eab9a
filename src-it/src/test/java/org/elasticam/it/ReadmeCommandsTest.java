package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * CI runs the README's two set-up commands exactly as the README writes them, the first on a local
 * Maven repository without ElasticAM in it; this keeps {@code .ci/run} and the README from drifting
 * apart.
 */
class ReadmeCommandsTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  /** The commands of the README's "Set up" block: its lines that are neither blank nor comments. */
  static List<String> setUpCommands() throws IOException {
    List<String> lines = Files.readAllLines(ROOT.resolve("README.md"));
    int heading = lines.indexOf("## Set up");
    assertTrue(heading >= 0, "README has a '## Set up' section");
    int open = heading + 1;
    while (!lines.get(open).startsWith("```")) {
      open++;
    }
    List<String> commands = new ArrayList<>();
    for (int i = open + 1; !lines.get(i).startsWith("```"); i++) {
      String l = lines.get(i).strip();
      if (!l.isEmpty() && !l.startsWith("#")) {
        commands.add(l);
      }
    }
    return commands;
  }

  @Test
  void ciRunsTheReadmeCommandsInOrderAfterEmptyingTheLocalRepository() throws IOException {
    List<String> readme = setUpCommands();
    assertEquals(2, readme.size(), "the README starts with exactly two set-up commands: " + readme);
    List<String> ci = Files.readAllLines(ROOT.resolve(".ci/run")).stream().map(String::strip).toList();
    int removal = indexOf(ci, l -> l.startsWith("rm -rf ") && l.endsWith("/org/elasticam\""));
    int first = ci.indexOf(readme.get(0));
    int second = ci.indexOf(readme.get(1));
    assertTrue(removal >= 0, ".ci/run removes org/elasticam from the local repository");
    assertTrue(first > removal, ".ci/run runs README command 1 as written, after the removal: " + readme.get(0));
    assertTrue(second > first, ".ci/run runs README command 2 as written, after command 1: " + readme.get(1));
    assertTrue(ci.contains("set -euo pipefail"), "a failing command fails CI");
    for (String l : ci) {
      assertTrue(!l.startsWith(readme.get(0)) || l.equals(readme.get(0)), "command 1 exactly, nothing added: " + l);
      assertTrue(!l.startsWith(readme.get(1)) || l.equals(readme.get(1)), "command 2 exactly, nothing added: " + l);
    }
  }

  private static int indexOf(List<String> lines, java.util.function.Predicate<String> p) {
    for (int i = 0; i < lines.size(); i++) {
      if (p.test(lines.get(i))) {
        return i;
      }
    }
    return -1;
  }
}
