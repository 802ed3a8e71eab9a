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
    assertEquals(0, p.waitFor(), "the launch script failed:\n" + text);
    return split(new String(printed, StandardCharsets.UTF_8));
  }

  private static List<String> split(String nulTerminated) throws IOException {
    List<String> out = new ArrayList<>(Arrays.asList(nulTerminated.split("\0", -1)));
    assertEquals("", out.remove(out.size() - 1), "every word ends with a NUL");
    return out;
  }
}
