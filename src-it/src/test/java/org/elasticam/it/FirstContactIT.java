package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a new user meets, through {@code bin/elasticam} itself as a user runs it, with no
 * {@code HADOOP_CONF_DIR}: README command 1 and every command and path its output offers to copy;
 * a failed run that says why wherever the user looks; arguments that reach the job byte for byte;
 * mistakes refused before the cluster starts; help that needs no cluster and lists what the README
 * lists. The jars are the ones this build made ({@code ELASTICAM_SKIP_BUILD}); CI runs command 1
 * with its build first, from an empty local repository.
 */
@Timeout(900)
class FirstContactIT {

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Path WORK = Path.of("target", "first contact").toAbsolutePath();

  /** Strings that a shell would change: they must reach the job as typed. */
  private static final List<String> HOSTILE = List.of(
      "$HOME", "${PATH}", "$(echo INJECTED)", "`echo INJECTED`", "it's \"quoted\"", "back\\slash \\$x",
      "two  spaces\tand a tab", "line one\nline two", "Grüße 東京 🙂", "{{HOME}} <LOG_DIR> <CPS>", "", "-x", "--conf",
      "; rm -rf /tmp/nothing-here &");

  private static Path jar;

  record Cmd(int code, String out, String err) {
    String all() {
      return out + err;
    }
  }

  @BeforeAll
  static void userJar() throws IOException {
    Files.createDirectories(WORK);
    jar = UserJobJar.build(WORK.resolve("jar"), "first-contact.jar", Map.of(
        "ParseJob", String.join("\n",
            "package it.user;",
            "import java.util.*;",
            "import org.elasticam.api.*;",
            "public class ParseJob implements Job {",
            "  public List<Stage> stages(String[] args) {",
            "    return List.of(Stage.builder(0, \"parse\", ParseTask.class)",
            "        .task(TaskSpec.of(Map.of(\"value\", args[0]))).build());",
            "  }",
            "  public static class ParseTask implements Task {",
            "    public void run(TaskContext ctx) { parse(ctx.params().get(\"value\")); }",
            "    static int parse(String v) { return Integer.parseInt(v); }",
            "  }",
            "}"),
        "Echo", String.join("\n",
            "package it.user;",
            "import java.nio.charset.StandardCharsets;",
            "import java.nio.file.*;",
            "import java.util.*;",
            "import org.elasticam.api.*;",
            "public class Echo {",
            "  public static class Job implements org.elasticam.api.Job {",
            "    public List<Stage> stages(String[] args) {",
            "      Map<String, String> p = new HashMap<>();",
            "      p.put(\"n\", String.valueOf(args.length));",
            "      for (int i = 0; i < args.length; i++) p.put(\"arg\" + i, args[i]);",
            "      return List.of(Stage.builder(0, \"echo\", Echo.Task.class).task(TaskSpec.of(p)).build());",
            "    }",
            "  }",
            "  public static class Task implements org.elasticam.api.Task {",
            "    public void run(TaskContext ctx) throws Exception {",
            "      int n = Integer.parseInt(ctx.params().get(\"n\"));",
            "      StringBuilder b = new StringBuilder();",
            "      for (int i = 1; i < n; i++) b.append(ctx.params().get(\"arg\" + i)).append('\\0');",
            "      Files.write(Paths.get(ctx.params().get(\"arg0\")), b.toString().getBytes(StandardCharsets.UTF_8));",
            "    }",
            "  }",
            "}"),
        "BadGraphJob", String.join("\n",
            "package it.user;",
            "import java.util.*;",
            "import org.elasticam.api.*;",
            "public class BadGraphJob implements Job {",
            "  public List<Stage> stages(String[] args) {",
            "    return List.of(Stage.builder(0, \"a\", \"org.elasticam.executor.tasks.SleepTask\").tasks(1).build(),",
            "        Stage.builder(1, \"b\", \"org.elasticam.executor.tasks.SleepTask\").parents(7).tasks(1).build());",
            "  }",
            "}")));
  }

  /** bin/elasticam as a user runs it from the checkout, through bash, without HADOOP_CONF_DIR. */
  private static Cmd shell(String commandLine) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", commandLine).directory(ROOT.toFile());
    pb.environment().remove("HADOOP_CONF_DIR");
    pb.environment().put("ELASTICAM_SKIP_BUILD", "1");
    pb.environment().put("ELASTICAM_WORK_DIR", WORK.resolve("clusters").toString());
    Process p = pb.start();
    CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("did not end within 5 minutes: " + commandLine);
    }
    return new Cmd(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err.get(), StandardCharsets.UTF_8));
  }

  private static Cmd elasticam(List<String> args) throws Exception {
    StringBuilder line = new StringBuilder("bin/elasticam");
    args.forEach(a -> line.append(' ').append(shellWord(a)));
    return shell(line.toString());
  }

  private static byte[] readAll(java.io.InputStream in) {
    try {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String shellWord(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }

  /** The rest of the summary line that starts with {@code label}, and the lines under it. */
  private static List<String> printed(String out, String label) {
    List<String> found = new ArrayList<>();
    boolean inside = false;
    for (String l : out.lines().toList()) {
      if (l.startsWith("  " + label + " ")) {
        found.add(l.substring(2 + label.length()).strip());
        inside = true;
      } else if (inside && l.startsWith("                  ")) {
        found.add(l.strip());
      } else {
        inside = false;
      }
    }
    return found;
  }

  @Test
  void readmeCommandOneAndEveryCommandAndPathItPrintsWorkWhenCopied() throws Exception {
    String command1 = ReadmeCommandsTest.setUpCommands().get(0);
    Cmd run = shell(command1);
    assertEquals(0, run.code(), run.all());
    assertTrue(run.out().contains("final status    SUCCEEDED"), run.out());
    assertFalse(run.out().contains("--detach"), "run offers no --detach, which it refuses");

    List<String> history = printed(run.out(), "report");
    assertEquals(1, history.size(), run.out());
    Cmd report = shell(history.get(0));
    assertEquals(0, report.code(), history.get(0) + "\n" + report.all());
    assertTrue(report.out().contains("SUCCEEDED"), report.out());
    Matcher html = Pattern.compile("(?m)^report: (.+)$").matcher(report.out());
    assertTrue(html.find(), report.out());
    assertTrue(Files.size(Path.of(html.group(1))) > 0, html.group(1));

    for (String label : List.of("event log", "AM log", "executor logs")) {
      List<String> paths = printed(run.out(), label);
      assertFalse(paths.isEmpty(), label + " printed:\n" + run.out());
      for (String p : paths) {
        assertEquals(0, shell("test -s " + p).code(), label + " " + p + " is a file with something in it");
      }
    }
    Matcher clusterLog = Pattern.compile("cluster log (\\S+)").matcher(run.out());
    assertTrue(clusterLog.find() && Files.exists(Path.of(clusterLog.group(1))), run.out());
  }

  @Test
  void aFailedRunSaysWhyInTheSummaryTheLogsAndTheReport() throws Exception {
    Path events = WORK.resolve("events of 'failed' runs in $HOME");
    Cmd run = elasticam(List.of("run", "--conf", "elasticam.task.maxFailures=2", "--conf",
        "elasticam.executor.instances=1", "--conf", "elasticam.eventLog.dir=file:" + events, "--jar", jar.toString(),
        "--class", "it.user.ParseJob", "x7"));
    assertEquals(1, run.code(), run.all());
    String why = "Task 0 of stage 0 (parse) failed 2 times (elasticam.task.maxFailures=2); last error:"
        + " NumberFormatException: For input string: \"x7\" at it.user.ParseJob$ParseTask.parse(ParseJob.java:11);"
        + " task parameters {value=x7}";
    assertTrue(run.out().contains("diagnostics: " + why), run.out());
    assertFalse(run.out().contains("yarn logs"), "no yarn command where there is no yarn: the log files are listed");

    List<String> logs = printed(run.out(), "executor logs");
    assertEquals(1, logs.size(), run.out());
    String executorLog = shell("cat " + logs.get(0)).out();
    assertTrue(executorLog.contains("java.lang.NumberFormatException: For input string: \"x7\""), executorLog);
    assertTrue(executorLog.contains("\tat it.user.ParseJob$ParseTask.parse(ParseJob.java:11)"), "the whole trace");
    assertTrue(executorLog.contains("\tat it.user.ParseJob$ParseTask.run(ParseJob.java:10)"), executorLog);

    List<String> history = printed(run.out(), "report");
    Cmd report = shell(history.get(0));
    assertEquals(0, report.code(), history.get(0) + "\n" + report.all());
    assertTrue(report.out().contains("FAILED"), report.out());
    assertTrue(report.out().contains("why: " + why), report.out());
    assertTrue(report.out().contains("stage 0 (parse) task 0 on executor"), report.out());
    Matcher html = Pattern.compile("(?m)^report: (.+)$").matcher(report.out());
    assertTrue(html.find());
    String page = Files.readString(Path.of(html.group(1)));
    assertTrue(page.contains("why: Task 0 of stage 0 (parse) failed 2 times"), "the report's page says why too");
  }

  @Test
  void argumentsAndANestedClassReachTheJobByteForByte() throws Exception {
    Path received = WORK.resolve("received");
    Files.deleteIfExists(received);
    List<String> args = new ArrayList<>(List.of("run", "--jar", jar.toString(), "--class", "it.user.Echo$Job", "--",
        received.toString()));
    args.addAll(HOSTILE);
    Cmd run = elasticam(args);
    assertEquals(0, run.code(), run.all());
    String got = Files.readString(received, StandardCharsets.UTF_8);
    List<String> words = new ArrayList<>(List.of(got.split("\0", -1)));
    assertEquals("", words.remove(words.size() - 1));
    assertEquals(HOSTILE, words);
  }

  @Test
  void mistakesAreRefusedBeforeTheClusterStarts() throws Exception {
    Cmd wrongClass = elasticam(List.of("run", "--jar", jar.toString(), "--class", "it.user.ParseJob.ParseTask"));
    assertEquals(2, wrongClass.code(), wrongClass.all());
    assertEquals("elasticam: class it.user.ParseJob.ParseTask is not in " + jar
        + " (did you mean it.user.ParseJob$ParseTask", wrongClass.err().strip().replaceFirst(",.*|\\?\\)$", ""));
    assertFalse(wrongClass.out().contains("Starting the embedded YARN cluster"), wrongClass.out());

    Cmd badGraph = elasticam(List.of("run", "--jar", jar.toString(), "--class", "it.user.BadGraphJob"));
    assertEquals(2, badGraph.code(), badGraph.all());
    assertEquals("elasticam: the job could not be planned: stage 1 names unknown parent 7", badGraph.err().strip());
    assertFalse(badGraph.out().contains("Starting"), badGraph.out());

    Cmd misplaced = elasticam(List.of("run", "--jar", jar.toString(), "--class", "it.user.ParseJob", "7",
        "--conf", "elasticam.executor.instances=1"));
    assertEquals(2, misplaced.code(), misplaced.all());
    assertTrue(misplaced.err().strip().startsWith("elasticam: --conf comes after the job's own arguments"),
        misplaced.err());

    Cmd detach = elasticam(List.of("run", "--detach", "sleep", "--tasks", "1"));
    assertEquals(2, detach.code(), detach.all());
    assertEquals(1, detach.err().strip().lines().count(), detach.err());
  }

  @Test
  void helpNeedsNoClusterAndListsEveryJobAndOptionOfTheReadme() throws Exception {
    String readme = Files.readString(ROOT.resolve("README.md"));
    List<String> jobs = tableFirstCells(readme, "| job | what it runs |");
    List<String> options = tableFirstCells(readme, "| option | |");
    assertEquals(5, jobs.size(), jobs.toString());
    assertTrue(options.size() >= 6, options.toString());
    Cmd run = elasticam(List.of("run", "--help"));
    Cmd submit = elasticam(List.of("submit", "--help"));
    for (Cmd help : List.of(run, submit)) {
      assertEquals(0, help.code(), help.all());
      for (String job : jobs) {
        assertTrue(help.out().contains(job), "help lists " + job + ":\n" + help.out());
      }
      for (String option : options) {
        for (String flag : option.split(", ")) {
          String name = flag.split(" ")[0];
          assertTrue(help.out().contains("  " + name + " ") || name.equals("--detach") && help == run,
              "help lists " + name + ":\n" + help.out());
        }
      }
    }
    for (List<String> command : List.of(List.of("--help"), List.of("status", "--help"), List.of("kill", "--help"),
        List.of("history", "--help"), List.of("simulate", "--help"))) {
      Cmd help = elasticam(command);
      assertEquals(0, help.code(), command + ": " + help.all());
      assertTrue(help.out().startsWith("usage:"), command + ": " + help.out());
      assertFalse(help.all().contains("Exception"), help.all());
    }
    // What yarn jar runs: the client's main, from the distributable jar, with Hadoop's classpath.
    String cp = ItCluster.appJar() + java.io.File.pathSeparator + String.join(java.io.File.pathSeparator,
        ItCluster.hadoopClasspath());
    Cmd yarnJar = shell("java -cp " + shellWord(cp) + " org.elasticam.am.client.ElasticamCli submit --help");
    assertEquals(0, yarnJar.code(), yarnJar.all());
    assertTrue(yarnJar.out().startsWith("usage: yarn jar " + ItCluster.appJar().normalize() + " submit"),
        yarnJar.out());

    Cmd noCluster = elasticam(List.of("submit", "sleep", "--tasks", "1"));
    assertEquals(2, noCluster.code(), noCluster.all());
    assertEquals("elasticam: set HADOOP_CONF_DIR to the directory with your cluster's yarn-site.xml",
        noCluster.err().strip());
  }

  /** The code spans that open the rows of the README table under {@code header}, unescaped. */
  private static List<String> tableFirstCells(String readme, String header) {
    List<String> cells = new ArrayList<>();
    List<String> lines = readme.lines().toList();
    int i = lines.indexOf(header);
    assertTrue(i >= 0, "README has a table " + header);
    for (i += 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
      Matcher m = Pattern.compile("^\\| `(.+?)`(, `(.+?)`)? \\|").matcher(lines.get(i));
      assertTrue(m.find(), lines.get(i));
      cells.add(m.group(3) == null ? m.group(1).replace("\\|", "|") : m.group(1) + ", " + m.group(3));
    }
    return cells;
  }
}
