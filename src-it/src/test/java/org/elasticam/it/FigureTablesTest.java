package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every figure in BENCHMARKS.md and RELIABILITY.md can be reproduced: each table sits in a section
 * (heading to heading) that names a command in code — {@code mvn …}, {@code bin/elasticam …} or a
 * script of the repository's — and every command the two files name points at things that exist:
 * scripts and their paths, modules ({@code -pl}), profiles ({@code -P}), test classes ({@code
 * -Dtest}, {@code -Dit.test}) and exec executions ({@code exec:exec@id}).
 */
class FigureTablesTest {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern CODE = Pattern.compile("```[^\\n]*\\n(.*?)```|`([^`]+)`", Pattern.DOTALL);
  private static final Pattern COMMAND = Pattern.compile(
      "(?:^|[\\s(;&|])(mvn |bin/elasticam |bench/scripts/|src-it/deploy/|\\.ci/run)");
  private static final Pattern SCRIPT = Pattern.compile("(?<![\\w/.])((?:bench/scripts|src-it/deploy|bin)/[\\w.-]+)");

  /** A section of a document: its heading and its lines, fenced blocks kept whole. */
  record Section(String heading, List<String> lines) {
    String text() {
      return String.join("\n", lines);
    }

    /** How many tables: runs of lines that start with '|' outside fenced blocks. */
    int tables() {
      int n = 0;
      boolean fenced = false;
      boolean inTable = false;
      for (String l : lines) {
        fenced ^= l.startsWith("```");
        boolean row = !fenced && l.startsWith("|");
        n += row && !inTable ? 1 : 0;
        inTable = row;
      }
      return n;
    }
  }

  static List<Section> sections(String doc) throws IOException {
    List<Section> out = new ArrayList<>();
    Section current = new Section("(before the first heading)", new ArrayList<>());
    boolean fenced = false;
    for (String l : Files.readAllLines(ROOT.resolve(doc))) {
      fenced ^= l.startsWith("```");
      if (!fenced && l.matches("#{1,6} .*")) {
        out.add(current);
        current = new Section(l, new ArrayList<>());
      }
      current.lines().add(l);
    }
    out.add(current);
    return out;
  }

  /** The commands a text names in code: each code block's lines and each code span, that run something. */
  static List<String> commands(String text) {
    List<String> out = new ArrayList<>();
    Matcher m = CODE.matcher(text);
    while (m.find()) {
      String code = m.group(1) != null ? m.group(1) : m.group(2).replace('\n', ' ');
      for (String line : code.split("\n")) {
        if (COMMAND.matcher(line).find()) {
          out.add(line.strip());
        }
      }
    }
    return out;
  }

  @ParameterizedTest
  @ValueSource(strings = {"BENCHMARKS.md", "RELIABILITY.md"})
  void everyFigureTableIsInASectionThatNamesItsCommand(String doc) throws IOException {
    List<String> without = new ArrayList<>();
    for (Section s : sections(doc)) {
      if (s.tables() > 0 && commands(s.text()).isEmpty()) {
        without.add(s.heading());
      }
    }
    assertEquals(List.of(), without, doc + ": sections with a figure table and no command that reproduces it");
  }

  @ParameterizedTest
  @ValueSource(strings = {"BENCHMARKS.md", "RELIABILITY.md"})
  void everyCommandNamedPointsAtThingsThatExist(String doc) throws IOException {
    assertEquals(List.of(), problems(Files.readString(ROOT.resolve(doc))),
        doc + ": commands naming what does not exist");
  }

  @Test
  void theCheckSeesATableWithoutACommandAndCommandsThatPointAtNothing() throws IOException {
    Section s = new Section("## x", List.of("## x", "", "| a | b |", "|---|---|", "| 1 | 2 |"));
    assertTrue(s.tables() == 1 && commands(s.text()).isEmpty(), "a table without a command");
    assertEquals(List.of("mvn -B verify -pl src-it -Dit.test=NodeLostIT"),
        commands("```bash\nmvn -B verify -pl src-it -Dit.test=NodeLostIT\n# a comment\n```"));
    assertEquals(List.of(), problems("`mvn -B verify -pl src-it -am -Pnetns -Dit.test=NodeLostIT`"
        + " `cd bench && mvn -q exec:exec@local-read` `bench/scripts/compare-policies.py --conf a=b`"));
    assertEquals(5, problems("`bench/scripts/gone.py` `mvn -B verify -pl gone -Pgone -Dtest=GoneTest`"
        + " `cd bench && mvn -q exec:exec@gone`").size());
  }

  /** What the commands in {@code text} name that does not exist, one line each. */
  static List<String> problems(String text) throws IOException {
    List<String> missing = new ArrayList<>();
    for (String c : commands(text)) {
      Matcher script = SCRIPT.matcher(c);
      while (script.find()) {
        if (!Files.isRegularFile(ROOT.resolve(script.group(1)))) {
          missing.add(script.group(1) + " (in `" + c + "`)");
        }
      }
      for (String module : values(c, "-pl\\s+([\\w/,.-]+)")) {
        if (!Files.isRegularFile(ROOT.resolve(module).resolve("pom.xml"))) {
          missing.add("module " + module + " (in `" + c + "`)");
        }
      }
      for (String profile : values(c, "(?<!\\S)-P\\s*([\\w,-]+)")) {
        if (!inAnyPom("<id>" + profile + "</id>")) {
          missing.add("profile " + profile + " (in `" + c + "`)");
        }
      }
      for (String execution : values(c, "exec:exec@([\\w-]+)")) {
        if (!inAnyPom("<id>" + execution + "</id>")) {
          missing.add("exec execution " + execution + " (in `" + c + "`)");
        }
      }
      for (String test : values(c, "-D(?:it\\.)?test=([\\w#*,]+)")) {
        String name = test.replaceAll("#.*", "");
        if (!name.equals("NoSuchTest") && !name.contains("*") && !testClasses().contains(name)) {
          missing.add("test " + name + " (in `" + c + "`)");
        }
      }
    }
    return missing;
  }

  private static List<String> values(String command, String regex) {
    List<String> out = new ArrayList<>();
    Matcher m = Pattern.compile(regex).matcher(command);
    while (m.find()) {
      for (String v : m.group(1).split(",")) {
        if (!v.isEmpty()) {
          out.add(v);
        }
      }
    }
    return out;
  }

  private static boolean inAnyPom(String text) throws IOException {
    try (Stream<Path> poms = Files.walk(ROOT, 3)) {
      for (Path p : poms.filter(p -> p.getFileName().toString().equals("pom.xml")
          && !p.toString().contains("/target/")).toList()) {
        if (Files.readString(p).contains(text)) {
          return true;
        }
      }
    }
    return false;
  }

  private static java.util.Set<String> testClasses;

  /** The names of every test source file in the repository, without .java. */
  private static synchronized java.util.Set<String> testClasses() throws IOException {
    if (testClasses == null) {
      java.util.Set<String> found = new java.util.HashSet<>();
      Files.walkFileTree(ROOT, new java.nio.file.SimpleFileVisitor<>() {
        @Override
        public java.nio.file.FileVisitResult preVisitDirectory(Path dir,
            java.nio.file.attribute.BasicFileAttributes attrs) {
          String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
          return name.equals("target") || name.startsWith(".") && !dir.equals(ROOT)
              ? java.nio.file.FileVisitResult.SKIP_SUBTREE : java.nio.file.FileVisitResult.CONTINUE;
        }

        @Override
        public java.nio.file.FileVisitResult visitFile(Path file, java.nio.file.attribute.BasicFileAttributes attrs) {
          String name = file.getFileName().toString();
          if (name.endsWith(".java") && file.toString().contains("/src/test/java/")) {
            found.add(name.substring(0, name.length() - ".java".length()));
          }
          return java.nio.file.FileVisitResult.CONTINUE;
        }
      });
      testClasses = found;
    }
    return testClasses;
  }
}
