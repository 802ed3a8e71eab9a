package org.elasticam.launcher.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.launcher.ContainerLaunch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Commands run through the NodeManager's own launch-script writer and marker expansion, then bash,
 * as a container is started: what the process receives is compared byte for byte.
 */
class ContainerCommandTest {

  /** Strings a user types that shells love to interpret. */
  static final List<String> HOSTILE = List.of(
      "com.example.GroupSum$MapTask",
      "/data/out-$(echo INJECTED)",
      "`echo INJECTED`",
      "it's \"quoted\" and 'single'",
      "back\\slash \\$HOME \\\\ \\n",
      "two  spaces\tand a tab",
      "line one\nline two",
      "Grüße, 東京, emoji 🙂",
      "$HOME ${HOME} $((1+1)) !! !$ ~ * ? [a-z] ; | & > < #",
      "",
      "-Dx=$y",
      "--conf");

  @TempDir
  Path tmp;

  @Test
  void everyArgumentReachesTheProcessUnchanged() throws Exception {
    ContainerCommand c = new ContainerCommand().shell("printf").arg("%s\\0");
    HOSTILE.forEach(c::arg);
    assertEquals(HOSTILE, runAsNodeManagerWould(c.build(), Map.of()));
  }

  @Test
  void expandedWordsAreExpandedAsTheNodeManagerMeansThemAndStayOneWord() throws Exception {
    String cmd = new ContainerCommand().shell("printf").arg("%s\\0").expanded("-Dtmp={{PWD}}/tmp")
        .expanded("<LOG_DIR>/stdout").expanded("{{HOME_OF_TEST}}/bin/java").redirect("2>", "<LOG_DIR>/stderr").build();
    List<String> got = runAsNodeManagerWould(cmd, Map.of("HOME_OF_TEST", "/opt/a jdk"));
    assertEquals(List.of("-Dtmp=" + container().toRealPath() + "/tmp", logs() + "/stdout", "/opt/a jdk/bin/java"), got);
    assertTrue(Files.exists(Path.of(logs() + "/stderr")), "redirected into a directory with a space in its name");
  }

  @Test
  void aWordWithTheLogDirGetsTheContainersLogDirAndIsOtherwiseUnchanged() throws Exception {
    String cmd = new ContainerCommand().shell("printf").arg("%s\\0")
        .argWithLogDir("-Xlog:gc:file=<LOG_DIR>/gc it's $HOME.log")
        .argWithLogDir("<LOG_DIR>")
        .argWithLogDir("no marker $(echo x)").build();
    assertEquals(List.of("-Xlog:gc:file=" + logs() + "/gc it's $HOME.log", logs(), "no marker $(echo x)"),
        runAsNodeManagerWould(cmd, Map.of()));
    assertThrows(IllegalArgumentException.class, () -> new ContainerCommand().argWithLogDir("<LOG_DIR>{{HOME}}"));
  }

  @Test
  void environmentValuesReachTheProcessUnchanged() throws Exception {
    // What the process reads from its environment (the value is never pasted into the command).
    String cmd = new ContainerCommand().shell("printenv").arg("ELASTICAM_TEST").shell("|").shell("tr").arg("\\n")
        .arg("\\0").build();
    for (String v : HOSTILE) {
      assertEquals(List.of(v.split("\n", -1)),
          runAsNodeManagerWould(cmd, Map.of("ELASTICAM_TEST", ContainerCommand.literalEnvValue(v))), v);
    }
  }

  @Test
  void aNodeManagerMarkerIsRefusedNotSilentlyChanged() {
    for (String v : List.of("{{HOME}}", "a}}b", "<LOG_DIR>/x", "a<CPS>b")) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ContainerCommand.quoted(v));
      assertTrue(e.getMessage().contains("NodeManager"), e.getMessage());
      assertThrows(IllegalArgumentException.class, () -> ContainerCommand.literalEnvValue(v));
    }
  }

  /**
   * Writes the launch script with the NodeManager's own builder after its own marker expansion, in
   * a working directory of its own, runs it with bash, and splits what the command printed at NULs.
   */
  /** The container's working directory, with a space in it as a user's checkout may have. */
  private Path container() throws IOException {
    return Files.createDirectories(tmp.resolve("a container"));
  }

  private String logs() throws IOException {
    return Files.createDirectories(tmp.resolve("log dir")).toString();
  }

  private List<String> runAsNodeManagerWould(String command, Map<String, String> env) throws Exception {
    Launched l = launch(command, env);
    assertEquals(0, l.exitCode(), "the launch script failed:\n" + l.script());
    return split(l.out());
  }

  /** What a container's launch printed, its exit code, and the script the NodeManager wrote. */
  private record Launched(int exitCode, String out, String script) {}

  /**
   * Writes the launch script with the NodeManager's own builder after its own marker expansion, in
   * a working directory of its own, and runs it with bash.
   */
  private Launched launch(String command, Map<String, String> env) throws Exception {
    org.apache.hadoop.fs.Path logDir = new org.apache.hadoop.fs.Path(logs());
    ContainerLaunch.ShellScriptBuilder script = ContainerLaunch.ShellScriptBuilder.create();
    for (Map.Entry<String, String> e : env.entrySet()) {
      script.env(e.getKey(), ContainerLaunch.expandEnvironment(e.getValue(), logDir));
    }
    script.command(List.of(ContainerLaunch.expandEnvironment(command, logDir)));
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8)) {
      script.write(out);
    }
    Path file = container().resolve("launch_container.sh");
    Files.write(file, text.toByteArray());
    Process p = new ProcessBuilder("bash", file.toString()).directory(container().toFile())
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    byte[] printed = p.getInputStream().readAllBytes();
    return new Launched(p.waitFor(), new String(printed, StandardCharsets.UTF_8), text.toString(StandardCharsets.UTF_8));
  }

  private static final String JAVA_KEY = "elasticam.yarn.appMasterEnv.JAVA_HOME";

  /** The check, then what the JVM would be: a command that says it started. */
  private String javaChecked() throws IOException {
    return new ContainerCommand().requireJava(17, 40, "the AM container", JAVA_KEY, logs() + "/AppMaster.stderr")
        .shell("exec").shell("printf").arg("%s\\0").arg("started").build();
  }

  /** A Java home: a release file saying {@code version} (none when null), a bin/java that prints {@code dashVersion}. */
  private Path javaHome(String name, String version, String dashVersion) throws IOException {
    Path home = Files.createDirectories(tmp.resolve("jdks").resolve(name));
    Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
    Files.writeString(java, "#!/bin/sh\necho '" + dashVersion + "' >&2\n");
    java.toFile().setExecutable(true);
    if (version != null) {
      Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"Test\"\nJAVA_VERSION=\"" + version + "\"\nOS_NAME=\"Linux\"\n");
    }
    return home;
  }

  private String stderrOfTheAm() throws IOException {
    Path f = Path.of(logs(), "AppMaster.stderr");
    return Files.exists(f) ? Files.readString(f) : "";
  }

  @Test
  void aJavaOfTheVersionNeededStartsTheJvm() throws Exception {
    for (String v : List.of("17.0.15", "21", "25.0.1")) {
      Path home = javaHome("jdk-" + v, v, "openjdk version \"" + v + "\"");
      assertEquals(List.of("started"), runAsNodeManagerWould(javaChecked(),
          Map.of("JAVA_HOME", home.toString(), "NM_HOST", "node-7")), v);
    }
    Path unreadable = javaHome("odd", null, "something else entirely");
    assertEquals(List.of("started"), runAsNodeManagerWould(javaChecked(), Map.of("JAVA_HOME", unreadable.toString())),
        "a version it cannot read is the JVM's to judge");
  }

  @Test
  void anOlderJavaStopsBeforeTheJvmWithItsVersionAndTheKeyToSet() throws Exception {
    Map<String, String> homes = Map.of(
        "11.0.2", javaHome("jdk-11", "11.0.2", "").toString(),
        "1.8.0_392", javaHome("jdk-8", "1.8.0_392", "").toString(),
        "11.0.21", javaHome("jdk-11-no-release", null, "openjdk version \"11.0.21\" 2023-10-17").toString());
    for (Map.Entry<String, String> h : homes.entrySet()) {
      Files.deleteIfExists(Path.of(logs(), "AppMaster.stderr"));
      Launched l = launch(javaChecked(), Map.of("JAVA_HOME", h.getValue(), "NM_HOST", "node-7"));
      assertEquals(40, l.exitCode(), h.getKey());
      assertEquals("", l.out(), "the JVM never started");
      assertEquals("elasticam: the AM container's Java is " + h.getKey() + " (JAVA_HOME=" + h.getValue() + " on node-7);"
          + " ElasticAM's AM and executors need Java 17 or later: set " + JAVA_KEY + " to a Java 17 home on the nodes\n",
          stderrOfTheAm());
    }
  }

  @Test
  void noJavaAtAllSaysSo() throws Exception {
    Launched l = launch(javaChecked(), Map.of("NM_HOST", "node-7", "JAVA_HOME", ""));
    assertEquals(40, l.exitCode());
    assertTrue(stderrOfTheAm().startsWith("elasticam: the AM container on node-7 has no Java at JAVA_HOME=''; "),
        stderrOfTheAm());
  }

  /** The archive's choice, then what the JVM would get: its option, then the environment, NUL-separated. */
  private static String archiveChosen(StartupArchive archive) {
    return archiveChosen(archive, org.elasticam.conf.StartupArchiveLayout.Role.EXECUTOR);
  }

  private static String archiveChosen(StartupArchive archive, org.elasticam.conf.StartupArchiveLayout.Role role) {
    return new ContainerCommand().startupArchive(archive, role).shell("printf").arg("%s\\0").startupArchiveOption()
        .shell("&&").shell("env").arg("-0").build();
  }

  private Map<String, String> launchedWith(StartupArchive archive, Map<String, String> env) throws Exception {
    return launchedWith(archive, org.elasticam.conf.StartupArchiveLayout.Role.EXECUTOR, env);
  }

  private Map<String, String> launchedWith(StartupArchive archive, org.elasticam.conf.StartupArchiveLayout.Role role,
      Map<String, String> env) throws Exception {
    List<String> words = runAsNodeManagerWould(archiveChosen(archive, role), env);
    Map<String, String> out = new java.util.HashMap<>();
    out.put("option", words.get(0));
    for (String kv : words.subList(1, words.size())) {
      out.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
    }
    return out;
  }

  @Test
  void executorsAreGivenTheNodesStartupArchiveWhenItIsThereAndWriteTheirClassListWhenNot() throws Exception {
    Path base = Files.createDirectories(tmp.resolve("archives, it's here"));
    StartupArchive archive = new StartupArchive(java.util.Optional.of(base.toString()), "0123456789abcdef",
        "__elasticam__.jar");
    Map<String, String> env = Map.of("JAVA_HOME", "/opt/jdk 17", "CLASSPATH", "/opt/hadoop/*");
    String pwd = container().toRealPath().toString();

    Map<String, String> none = launchedWith(archive, env);
    String dir = none.get("ELASTICAM_STARTUP_ARCHIVE");
    assertTrue(dir.matches(java.util.regex.Pattern.quote(base + "/0123456789abcdef-") + "[0-9]+"), dir);
    assertEquals("absent", none.get("ELASTICAM_STARTUP_ARCHIVE_STATE"));
    assertEquals("-XX:DumpLoadedClassList=" + pwd + "/tmp/elasticam-startup.classlist", none.get("option"));
    assertEquals(pwd + "/__elasticam__.jar", none.get("ELASTICAM_STARTUP_ARCHIVE_SOURCE"));
    assertEquals("/opt/hadoop/*", none.get("CLASSPATH"));

    // Only an archive beside its jar is taken.
    Files.createDirectories(Path.of(dir));
    Files.writeString(Path.of(dir, "executor.jsa"), "an archive");
    assertEquals("absent", launchedWith(archive, env).get("ELASTICAM_STARTUP_ARCHIVE_STATE"));
    Files.writeString(Path.of(dir, "elasticam.jar"), "its jar");
    Map<String, String> there = launchedWith(archive, env);
    assertEquals("given", there.get("ELASTICAM_STARTUP_ARCHIVE_STATE"));
    assertEquals("-XX:SharedArchiveFile=" + dir + "/executor.jsa", there.get("option"));
    assertEquals(dir + "/elasticam.jar:/opt/hadoop/*", there.get("CLASSPATH"), "the archive's jar first");

    // Another Java home on the node has an archive of its own.
    Map<String, String> otherJava = launchedWith(archive, Map.of("JAVA_HOME", "/opt/jdk-21", "CLASSPATH", "x"));
    assertTrue(!otherJava.get("ELASTICAM_STARTUP_ARCHIVE").equals(dir), otherJava.toString());
    assertEquals("absent", otherJava.get("ELASTICAM_STARTUP_ARCHIVE_STATE"));
  }

  @Test
  void theAmIsGivenItsOwnArchiveFromTheSameDirectoryAndWritesItsOwnClassListWhenItIsNotThere() throws Exception {
    org.elasticam.conf.StartupArchiveLayout.Role am = org.elasticam.conf.StartupArchiveLayout.Role.AM;
    Path base = Files.createDirectories(tmp.resolve("archives"));
    StartupArchive archive = new StartupArchive(java.util.Optional.of(base.toString()), "0123456789abcdef",
        "__elasticam__.jar");
    Map<String, String> env = Map.of("JAVA_HOME", "/opt/jdk", "CLASSPATH", "/opt/hadoop/*");
    String pwd = container().toRealPath().toString();
    String dir = launchedWith(archive, env).get("ELASTICAM_STARTUP_ARCHIVE");
    Files.createDirectories(Path.of(dir));
    Files.writeString(Path.of(dir, "elasticam.jar"), "its jar");
    Files.writeString(Path.of(dir, "executor.jsa"), "the executors' archive");

    Map<String, String> none = launchedWith(archive, am, env);
    assertEquals(dir, none.get("ELASTICAM_STARTUP_ARCHIVE"), "one directory per build for both");
    assertEquals("absent", none.get("ELASTICAM_STARTUP_ARCHIVE_STATE"), "the executors' archive is not the AM's");
    assertEquals("-XX:DumpLoadedClassList=" + pwd + "/tmp/elasticam-am-startup.classlist", none.get("option"));

    Files.writeString(Path.of(dir, "am.jsa"), "the AM's archive");
    Map<String, String> there = launchedWith(archive, am, env);
    assertEquals("given", there.get("ELASTICAM_STARTUP_ARCHIVE_STATE"));
    assertEquals("-XX:SharedArchiveFile=" + dir + "/am.jsa", there.get("option"));
    assertEquals(dir + "/elasticam.jar:/opt/hadoop/*", there.get("CLASSPATH"), "the archive's jar first");
  }

  @Test
  void byDefaultTheArchiveLivesBesideTheApplicationsOfTheUserAndWithoutLocalDirsThereIsNone() throws Exception {
    StartupArchive archive = new StartupArchive(java.util.Optional.empty(), "0123456789abcdef", "__elasticam__.jar");
    Map<String, String> yarn = launchedWith(archive, Map.of("JAVA_HOME", "/opt/jdk",
        "LOCAL_DIRS", "/d1/nm/usercache/alice/appcache/application_1_0001,/d2/nm/usercache/alice/appcache/application_1_0001"));
    assertTrue(yarn.get("ELASTICAM_STARTUP_ARCHIVE").startsWith(
        "/d1/nm/usercache/alice/appcache/application_1_0001/../../elasticam-startup/0123456789abcdef-"), yarn.toString());

    Map<String, String> noDirs = launchedWith(archive, Map.of("JAVA_HOME", "/opt/jdk"));
    assertEquals("-Xshare:auto", noDirs.get("option"), "the JVM's own default, never an empty word");
    assertTrue(!noDirs.containsKey("ELASTICAM_STARTUP_ARCHIVE_STATE"), noDirs.toString());
  }

  private static List<String> split(String nulTerminated) throws IOException {
    List<String> out = new ArrayList<>(Arrays.asList(nulTerminated.split("\0", -1)));
    assertEquals("", out.remove(out.size() - 1), "every word ends with a NUL");
    return out;
  }
}
