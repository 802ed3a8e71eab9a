package org.elasticam.shuffle.service.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.elasticam.shuffle.layout.ShuffleLayout;
import org.elasticam.testkit.shuffle.ShuffleFixtures;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LinuxContainerExecutor's layout read by a NodeManager's user that owns none of it, as
 * container-executor leaves it: usercache/&lt;user&gt; and below owned by the application's user and
 * the NodeManager's group, setgid, 2750; the executor's files 640. The service runs in a JVM of its
 * own under uid {@link #NM_UID} and gid {@link #NM_GROUP} ({@code setpriv}), so permission bits
 * count, as they do not for root. Needs root and setpriv; skipped, saying so, without them. It does
 * not run container-executor itself (a setuid binary built with Hadoop's native code, not in Maven).
 */
class LinuxContainerExecutorLayoutTest {

  private static final int APP_UID = 65534; // "nobody", the application's user
  private static final int NM_UID = 4320;
  private static final int NM_GROUP = 4321;

  @TempDir
  Path tmp;

  private Path nmLocal;
  private Path execDir;
  private String classpath;

  @BeforeEach
  void setUp() throws Exception {
    assumeTrue(new File("/usr/bin/setpriv").canExecute(), "needs /usr/bin/setpriv to run a JVM as another user");
    Path probe = Files.createTempFile(tmp, "chown", "");
    try {
      Files.setAttribute(probe, "unix:uid", APP_UID);
    } catch (IOException e) {
      assumeTrue(false, "laying out another user's dirs needs root (CAP_CHOWN), which this run lacks: " + e);
    }
    Files.setAttribute(tmp, "unix:mode", 0755);
    nmLocal = tmp.resolve("nm-local");
    Path appDir = ShuffleFixtures.appCacheDir(nmLocal, "nobody", NodeManagerUserChild.APP);
    execDir = Files.createDirectories(appDir.resolve("executor-1"));
    ShuffleFixtures.writeMaps(List.of(execDir), 0, 3, 2, NodeManagerUserChild::size);
    try (Stream<Path> all = Files.walk(nmLocal.resolve("usercache/nobody"))) {
      for (Path p : all.toList()) {
        Files.setAttribute(p, "unix:uid", APP_UID, LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(p, "unix:gid", NM_GROUP, LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(p, "unix:mode", Files.isDirectory(p) ? 02750 : 0640);
      }
    }
    classpath = readableClasspath();
  }

  /** What the child needs of the test classpath, copied where another user can read it. */
  private String readableClasspath() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("cp"));
    StringBuilder cp = new StringBuilder(dir + "/*");
    for (String entry : System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"))
        .split(File.pathSeparator)) {
      Path from = Path.of(entry);
      String name = from.getFileName().toString();
      if (!(name.startsWith("elasticam-") || name.startsWith("netty-") || name.startsWith("slf4j-api")
          || name.endsWith("classes"))) {
        continue;
      }
      // A module's classes directory, named after its module: in a reactor build each is target/classes.
      Path to = dir.resolve(Files.isDirectory(from) ? from.getParent().getParent().getFileName() + "-" + name : name);
      if (Files.isDirectory(from)) {
        cp.append(File.pathSeparator).append(to);
      }
      try (Stream<Path> files = Files.walk(from)) {
        for (Path f : files.toList()) {
          Path target = to.resolve(from.relativize(f).toString());
          if (Files.isDirectory(f)) {
            Files.createDirectories(target);
          } else {
            Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING);
          }
        }
      }
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.toList()) {
        Files.setAttribute(p, "unix:mode", Files.isDirectory(p) ? 0755 : 0644);
      }
    }
    return cp.toString();
  }

  private String runAsNodeManager(int gid) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("/usr/bin/setpriv", "--reuid=" + NM_UID, "--regid=" + gid,
        "--clear-groups", Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Djava.io.tmpdir=" + tmp, "-cp", classpath,
        NodeManagerUserChild.class.getName(), nmLocal.toString(), "nobody", execDir.toString()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the child ends");
    return out.lines().filter(l -> l.startsWith("RESULT ")).findFirst().orElse("no result; output:\n" + out);
  }

  @Test
  void aNodeManagerUserInTheGroupServesTheUsersFilesByteExact() throws Exception {
    assertEquals("RESULT served 6 of 6 blocks byte-exact", runAsNodeManager(NM_GROUP));
  }

  @Test
  void aFileTheGroupCannotReadGets500AndANodeManagerOutsideTheGroupCannotRegisterTheDirs() throws Exception {
    Files.setAttribute(ShuffleLayout.dataFile(List.of(execDir), 0, 1), "unix:mode", 0600);
    String unreadable = runAsNodeManager(NM_GROUP);
    assertTrue(unreadable.startsWith("RESULT fetch failed") && unreadable.contains("answered 500: cannot read the"
        + " output of map 1 of shuffle 0: FileNotFoundException"), unreadable);
    String outside = runAsNodeManager(NM_GROUP + 1);
    assertTrue(outside.startsWith("RESULT registration refused") && outside.contains("AccessDeniedException"),
        outside);
  }
}
