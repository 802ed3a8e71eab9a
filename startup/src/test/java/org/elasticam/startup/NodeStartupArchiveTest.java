package org.elasticam.startup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.elasticam.conf.StartupArchiveLayout;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The archive made and used for real: this machine's Java dumps it, and a JVM started as the
 * launch script starts executors loads the probe's class from it (or, refused, says it shares nothing).
 */
class NodeStartupArchiveTest {

  private static final Path JAVA_HOME = Path.of(System.getProperty("java.home"));
  private static final String PROBE = ArchiveProbe.class.getName();
  private static final StartupArchiveLayout.Role EXEC = StartupArchiveLayout.Role.EXECUTOR;

  @TempDir
  Path tmp;

  private Path container;
  private Path sourceJar;
  private Path base;

  @BeforeEach
  void localizedJarAndItsClassList() throws Exception {
    container = Files.createDirectories(tmp.resolve("container_1"));
    Files.createDirectories(container.resolve("tmp"));
    sourceJar = container.resolve("__elasticam__.jar");
    String entry = PROBE.replace('.', '/') + ".class";
    try (InputStream in = ArchiveProbe.class.getClassLoader().getResourceAsStream(entry);
        JarOutputStream out = new JarOutputStream(Files.newOutputStream(sourceJar))) {
      out.putNextEntry(new JarEntry(entry));
      in.transferTo(out);
    }
    // What an executor without an archive writes as it starts; its last line may be half written.
    run("-XX:DumpLoadedClassList=" + ownList(), "-cp", sourceJar.toString(), PROBE);
    try (OutputStream out = Files.newOutputStream(ownList(), java.nio.file.StandardOpenOption.APPEND)) {
      out.write("org/elasticam/exec".getBytes(StandardCharsets.UTF_8));
    }
    base = tmp.resolve("elasticam-startup");
  }

  private Path ownList() {
    return container.resolve("tmp").resolve(EXEC.ownClassList);
  }

  private NodeStartupArchive archive(String build, String given, String vmInfo) {
    return archive(EXEC, build, given, vmInfo);
  }

  private NodeStartupArchive archive(StartupArchiveLayout.Role role, String build, String given, String vmInfo) {
    return NodeStartupArchive.of(role, Map.of(StartupArchiveLayout.ENV_DIR, base.resolve(build).toString(),
        StartupArchiveLayout.ENV_STATE, given, StartupArchiveLayout.ENV_SOURCE_JAR, sourceJar.toString()),
        vmInfo, container.resolve("tmp"), JAVA_HOME);
  }

  /** The probe started as an executor is when the node has the archive. */
  private String startedFromArchive(String build) throws Exception {
    return startedFromArchive(EXEC, build);
  }

  private String startedFromArchive(StartupArchiveLayout.Role role, String build) throws Exception {
    Path dir = base.resolve(build);
    return run("-XX:SharedArchiveFile=" + dir.resolve(role.archive), "-Xlog:class+load=info",
        "-cp", dir.resolve(StartupArchiveLayout.JAR) + ":" + container, PROBE);
  }

  @Test
  void anExecutorWithoutOneMakesTheArchiveAndTheNextOneLoadsItsClassesFromIt() throws Exception {
    NodeStartupArchive first = archive("b1", StartupArchiveLayout.ABSENT, "mixed mode, sharing");
    assertEquals(NodeStartupArchive.State.ABSENT, first.state());
    NodeStartupArchive.Outcome made = first.make();
    assertTrue(made.written(), made.detail());
    assertTrue(made.detail().contains("classes listed"), made.detail());

    String out = startedFromArchive("b1");
    assertTrue(out.contains(PROBE + " source: shared objects file"), out);
    assertTrue(out.contains("vm.info=") && vmInfo(out).contains("sharing"), out);
    assertEquals(NodeStartupArchive.State.USED, archive("b1", StartupArchiveLayout.GIVEN, vmInfo(out)).state());

    NodeStartupArchive.Outcome again = archive("b1", StartupArchiveLayout.ABSENT, "").make();
    assertFalse(again.written(), "made once: " + again.detail());
  }

  @Test
  void theAmsArchiveIsMadeFromItsOwnClassListBesideTheExecutorsAndBothAreUsed() throws Exception {
    assertTrue(archive("b1", StartupArchiveLayout.ABSENT, "").make().written());
    Path jar = base.resolve("b1").resolve(StartupArchiveLayout.JAR);
    FileTime jarTime = Files.getLastModifiedTime(jar);
    // The AM writes a list of its own classes under its own name.
    Path amList = container.resolve("tmp").resolve(StartupArchiveLayout.Role.AM.ownClassList);
    run("-XX:DumpLoadedClassList=" + amList, "-cp", sourceJar.toString(), PROBE);
    NodeStartupArchive am = archive(StartupArchiveLayout.Role.AM, "b1", StartupArchiveLayout.ABSENT, "");
    assertEquals(NodeStartupArchive.State.ABSENT, am.state(), "the executors' archive is not the AM's");
    NodeStartupArchive.Outcome made = am.make();
    assertTrue(made.written(), made.detail());
    assertEquals(jarTime, Files.getLastModifiedTime(jar), "the jar both archives were made from stays as it was");
    assertTrue(Files.exists(base.resolve("b1").resolve(StartupArchiveLayout.Role.AM.classList)));
    assertTrue(startedFromArchive(StartupArchiveLayout.Role.AM, "b1").contains(PROBE + " source: shared objects file"));
    assertTrue(startedFromArchive(EXEC, "b1").contains(PROBE + " source: shared objects file"));
    assertFalse(archive(StartupArchiveLayout.Role.AM, "b1", StartupArchiveLayout.ABSENT, "").make().written(),
        "made once");

    // The AM's archive broken: made again from the kept list, against the same jar, so that the
    // executors' archive stays usable (a new copy of the jar would make the JVM refuse it in turn).
    Path amArchive = base.resolve("b1").resolve(StartupArchiveLayout.Role.AM.archive);
    Files.write(amArchive, new byte[4096]);
    String refused = startedFromArchive(StartupArchiveLayout.Role.AM, "b1");
    NodeStartupArchive again = archive(StartupArchiveLayout.Role.AM, "b1", StartupArchiveLayout.GIVEN, vmInfo(refused));
    assertEquals(NodeStartupArchive.State.REFUSED, again.state());
    Files.delete(amList);
    NodeStartupArchive.Outcome remade = again.make();
    assertTrue(remade.written(), remade.detail());
    assertEquals(jarTime, Files.getLastModifiedTime(jar));
    assertTrue(startedFromArchive(StartupArchiveLayout.Role.AM, "b1").contains(PROBE + " source: shared objects file"));
    assertTrue(startedFromArchive(EXEC, "b1").contains(PROBE + " source: shared objects file"));
  }

  @Test
  void theAmsArchiveWaitsForTheExecutorsUntilItsYieldEnds() throws Exception {
    Path amList = container.resolve("tmp").resolve(StartupArchiveLayout.Role.AM.ownClassList);
    run("-XX:DumpLoadedClassList=" + amList, "-cp", sourceJar.toString(), PROBE);
    NodeStartupArchive am = archive(StartupArchiveLayout.Role.AM, "b1", StartupArchiveLayout.ABSENT, "");
    long later = System.currentTimeMillis() + 60_000;
    NodeStartupArchive.Outcome waits = am.make(later);
    assertTrue(waits.busy(), waits.detail());
    assertFalse(Files.exists(base.resolve("b1").resolve(StartupArchiveLayout.Role.AM.archive)));

    assertTrue(archive("b1", StartupArchiveLayout.ABSENT, "").make().written());
    NodeStartupArchive.Outcome made = am.make(later);
    assertTrue(made.written(), "once the executors' is there: " + made.detail());

    Files.delete(base.resolve("b1").resolve(StartupArchiveLayout.Role.AM.archive));
    Files.delete(base.resolve("b1").resolve(StartupArchiveLayout.Role.EXECUTOR.archive));
    NodeStartupArchive.Outcome alone = am.make(System.currentTimeMillis() - 1);
    assertTrue(alone.written(), "and without it once the wait is over: " + alone.detail());
  }

  @Test
  void anArchiveTheJvmRefusesIsNoticedAndMadeAgainFromTheKeptClassList() throws Exception {
    assertTrue(archive("b1", StartupArchiveLayout.ABSENT, "").make().written());
    Path jar = base.resolve("b1").resolve(StartupArchiveLayout.JAR);
    // The jar beside the archive is not the one it was made from: the JVM checks size and time.
    Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 3_600_000));
    String refused = startedFromArchive("b1");
    assertTrue(refused.contains(PROBE + " source: file:"), refused);
    assertFalse(vmInfo(refused).contains("sharing"), "a refused static archive shares nothing: " + refused);

    NodeStartupArchive again = archive("b1", StartupArchiveLayout.GIVEN, vmInfo(refused));
    NodeStartupArchive alsoRefused = archive("b1", StartupArchiveLayout.GIVEN, vmInfo(refused));
    assertEquals(NodeStartupArchive.State.REFUSED, again.state());
    Files.delete(ownList()); // an executor given the archive writes no list of its own
    NodeStartupArchive.Outcome made = again.make();
    assertTrue(made.written(), made.detail());
    assertTrue(startedFromArchive("b1").contains(PROBE + " source: shared objects file"));
    // Another executor that started from the broken archive leaves the new one alone.
    Path archive = base.resolve("b1").resolve(StartupArchiveLayout.Role.EXECUTOR.archive);
    FileTime remadeAt = Files.getLastModifiedTime(archive);
    NodeStartupArchive.Outcome second = alsoRefused.make();
    assertFalse(second.written(), second.detail());
    assertEquals(remadeAt, Files.getLastModifiedTime(archive));
    assertTrue(startedFromArchive("b1").contains(PROBE + " source: shared objects file"));
  }

  @Test
  void oneExecutorOnANodeMakesItAtATimeUnlessTheOtherDiedLongAgo() throws Exception {
    Path lock = Files.createDirectories(base.resolve("b1")).resolve(".making");
    Files.createFile(lock);
    NodeStartupArchive.Outcome busy = archive("b1", StartupArchiveLayout.ABSENT, "").make();
    assertFalse(busy.written());
    assertTrue(busy.detail().contains("another JVM"), busy.detail());
    assertTrue(Files.exists(lock), "not ours to remove");

    Files.setLastModifiedTime(lock, FileTime.fromMillis(System.currentTimeMillis()
        - NodeStartupArchive.STALE_LOCK.toMillis() - 1_000));
    assertTrue(archive("b1", StartupArchiveLayout.ABSENT, "").make().written());
    assertFalse(Files.exists(lock));
  }

  @Test
  void aLockWhoseExecutorIsGoneIsTakenOverAtOnce() throws Exception {
    Path lock = Files.createDirectories(base.resolve("b1")).resolve(".making");
    Process gone = new ProcessBuilder("true").start();
    long started = gone.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);
    gone.waitFor();
    Files.writeString(lock, gone.pid() + " " + started);
    assertTrue(archive("b1", StartupArchiveLayout.ABSENT, "").make().written(), "the container ended mid-dump");

    ProcessHandle self = ProcessHandle.current();
    Files.writeString(lock, self.pid() + " " + self.info().startInstant().orElseThrow().toEpochMilli());
    assertFalse(archive("b1", StartupArchiveLayout.ABSENT, "").takeLock(lock), "a live holder keeps it");
  }

  @Test
  void onlyTheNewestBuildsOfTheJarKeepTheirArchives() throws Exception {
    List<Path> older = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      Path d = Files.createDirectories(base.resolve("old" + i));
      Files.writeString(d.resolve(EXEC.archive), "archive " + i);
      Files.setLastModifiedTime(d.resolve(EXEC.archive),
          FileTime.fromMillis(System.currentTimeMillis() - Duration.ofHours(i).toMillis()));
      older.add(d);
    }
    Path beingMade = Files.createDirectories(base.resolve("being-made"));
    Files.createFile(beingMade.resolve(".making"));
    assertTrue(archive("new", StartupArchiveLayout.ABSENT, "").make().written());
    assertTrue(Files.exists(base.resolve("new").resolve(EXEC.archive)));
    assertTrue(Files.exists(older.get(0)) && Files.exists(older.get(1)), "the newest two older builds stay");
    assertFalse(Files.exists(older.get(2)) || Files.exists(older.get(3)), "the rest go");
    assertTrue(Files.exists(beingMade), "another executor's archive in the making stays");
  }

  @Test
  void noArchiveIsMadeInADirectoryOthersMayWriteIn() throws Exception {
    Path shared = Files.createDirectories(base.resolve("b1"));
    Files.setPosixFilePermissions(shared, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
    NodeStartupArchive.Outcome o = archive("b1", StartupArchiveLayout.ABSENT, "").make();
    assertFalse(o.written());
    assertTrue(o.detail().startsWith("others may write in the directory"), o.detail());
    assertFalse(Files.exists(shared.resolve(StartupArchiveLayout.JAR)), "nothing of ours left there");

    assertTrue(archive("b2", StartupArchiveLayout.ABSENT, "").make().written());
    assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(
        Files.getPosixFilePermissions(base.resolve("b2"))), "made for its user only");
  }

  @Test
  void withoutTheLaunchScriptsWordThereIsNoArchive() {
    NodeStartupArchive off = NodeStartupArchive.of(EXEC, Map.of(), "mixed mode, sharing", container, JAVA_HOME);
    assertEquals(NodeStartupArchive.State.OFF, off.state());
  }

  @Test
  void aDirectoryThatCannotBeMadeLeavesTheExecutorAsItWas() throws Exception {
    Files.writeString(base, "a file where the directory should be");
    NodeStartupArchive.Outcome o = archive("b1", StartupArchiveLayout.ABSENT, "").make();
    assertFalse(o.written());
    assertTrue(o.detail().startsWith("cannot create the directory"), o.detail());
  }

  private static String vmInfo(String out) {
    for (String line : out.split("\n")) {
      if (line.startsWith("vm.info=")) {
        return line.substring("vm.info=".length());
      }
    }
    throw new AssertionError("no vm.info in: " + out);
  }

  private String run(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(JAVA_HOME.resolve("bin").resolve("java").toString()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).directory(container.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    return out;
  }
}
