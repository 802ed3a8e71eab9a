package org.elasticam.startup;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.elasticam.conf.StartupArchiveLayout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.elasticam.time.Clock;

/**
 * This node's start-up archive, from the side of the JVM it serves (an executor, or the AM: each
 * has an archive of its own, {@link StartupArchiveLayout.Role}): whether this JVM started from it,
 * and, when it did not (there was none yet, or the JVM refused it: another Java build, or its jar
 * changed), making it for the JVMs of its role that start here later.
 *
 * <p>The archive is a JDK static class-data-sharing archive made by {@code java -Xshare:dump} in a
 * separate process: the node's own Java, from the class list a JVM without an archive wrote as it
 * started, against a copy of our jar in the archive's directory (the localized jar gets a new time
 * in every application, and the JVM checks the time). A separate process, because a dump that fails
 * inside a JVM can end that JVM. One JVM on a node makes an archive at a time (a lock file in the
 * build's directory), at a low priority, once its own start is over; a failure leaves the next JVMs
 * starting as they did before, with one line saying why.
 */
public final class NodeStartupArchive {

  private static final Logger LOG = LoggerFactory.getLogger(NodeStartupArchive.class);

  /** How this JVM started, as the event log names it. */
  public enum State {
    /** No archive for this application (turned off, or no directory for it on this node). */
    OFF("off"),
    /** Given the archive, and the JVM mapped it. */
    USED("used"),
    /** Given the archive, and the JVM could not use it. */
    REFUSED("refused"),
    /** None on this node yet. */
    ABSENT("absent");

    public final String eventName;

    State(String eventName) {
      this.eventName = eventName;
    }
  }

  /** What one attempt to make the archive came to. */
  record Outcome(boolean written, String detail, boolean busy) {
    Outcome(boolean written, String detail) {
      this(written, detail, false);
    }
  }

  /**
   * While another JVM of this build makes an archive (an executor's and the AM's start at about the
   * same time), this one tries again this often, up to {@link #BUSY_TRIES} times.
   */
  static final Duration BUSY_RETRY = Duration.ofSeconds(2);
  static final int BUSY_TRIES = 30;
  /** Half the busy window: the AM's dump still has the other half to wait for an executor's to end. */
  static final Duration YIELD_TO_EXECUTORS = Duration.ofSeconds(30);

  /** A lock this old is taken over whoever holds it: longer than any dump ({@link #DUMP_TIMEOUT}). */
  static final Duration STALE_LOCK = Duration.ofMinutes(5);
  static final Duration DUMP_TIMEOUT = Duration.ofMinutes(3);
  /** Builds of the jar whose archives stay on the node; older ones are deleted. */
  static final int KEEP = 3;
  private static final String LOCK = ".making";

  private final StartupArchiveLayout.Role role;
  private final State state;
  private final Path dir;
  private final Path sourceJar;
  private final Path ownClassList;
  private final Path javaCommand;
  /**
   * When the archive this JVM refused was written: every executor that started from a broken
   * archive would make it again, in turn, and the later ones would throw away what the first made.
   */
  private final FileTime refusedArchiveTime;
  /** The thread making this JVM's archive; null until one is started. */
  private volatile Thread making;

  /** Lock files' ages are read against it (their mtimes are wall-clock time, as the system clock's). */
  private final Clock clock = Clock.system();

  NodeStartupArchive(StartupArchiveLayout.Role role, State state, Path dir, Path sourceJar, Path ownClassList,
      Path java, FileTime refusedArchiveTime) {
    this.refusedArchiveTime = refusedArchiveTime;
    this.role = role;
    this.state = state;
    this.dir = dir;
    this.sourceJar = sourceJar;
    this.ownClassList = ownClassList;
    this.javaCommand = java;
  }

  /**
   * From what the launch script said and what the JVM did: a JVM that maps a static archive says
   * "sharing" in {@code java.vm.info}, and one that refused the archive it was given says nothing of
   * it, as it then shares no classes at all.
   */
  static NodeStartupArchive of(StartupArchiveLayout.Role role, Map<String, String> env, String vmInfo, Path tmpDir,
      Path javaHome) {
    String dir = env.get(StartupArchiveLayout.ENV_DIR);
    String given = env.get(StartupArchiveLayout.ENV_STATE);
    String source = env.get(StartupArchiveLayout.ENV_SOURCE_JAR);
    State state;
    if (dir == null || dir.isEmpty() || given == null || source == null) {
      state = State.OFF;
    } else if (StartupArchiveLayout.GIVEN.equals(given)) {
      state = vmInfo != null && vmInfo.contains("sharing") ? State.USED : State.REFUSED;
    } else {
      state = State.ABSENT;
    }
    Path d = state == State.OFF ? null : Path.of(dir).normalize();
    return new NodeStartupArchive(role, state, d, source == null ? null : Path.of(source),
        tmpDir.resolve(role.ownClassList), javaHome.resolve("bin").resolve("java"),
        state == State.REFUSED ? modifiedOrNull(d.resolve(role.archive)) : null);
  }

  private static FileTime modifiedOrNull(Path p) {
    try {
      return Files.getLastModifiedTime(p);
    } catch (IOException e) {
      return null;
    }
  }

  /** How this JVM, started as {@code role}, stands with its archive. */
  public static NodeStartupArchive ofThisJvm(StartupArchiveLayout.Role role) {
    return of(role, System.getenv(), System.getProperty("java.vm.info"),
        Path.of(System.getProperty("java.io.tmpdir")), Path.of(System.getProperty("java.home")));
  }

  public State state() {
    return state;
  }

  Path archive() {
    return dir == null ? null : dir.resolve(role.archive);
  }

  /** Who makes and uses this archive, for log lines: "executors" or "AMs". */
  private String users() {
    return role == StartupArchiveLayout.Role.AM ? "AMs" : "executors";
  }

  /** One line on how this JVM ({@code who}: "Executor 3", "The AM") started, for its log. */
  public void logStart(String who) {
    switch (state) {
      case USED -> LOG.info("{} started from this node's start-up archive {}", who, archive());
      case REFUSED -> LOG.warn("{} started without this node's start-up archive {}: the JVM could not use it"
          + " (another Java build, or its jar changed); it is made again", who, archive());
      case ABSENT -> LOG.info("{} started without a start-up archive: none at {} yet; it makes one for the"
          + " {} that start here later", who, archive(), users());
      case OFF -> LOG.debug("{} started without a start-up archive: off for this application", who);
    }
  }

  /** Once this JVM's start is over: makes the archive on a daemon thread when this JVM started without one. */
  public void makeInBackground(String who) {
    makeInBackground(who, false);
  }

  /**
   * As {@link #makeInBackground(String)}, but after the executors' archive of this build, waiting
   * up to {@link #YIELD_TO_EXECUTORS} for it: the AM's dump and the executors' start when the first
   * executor registers, only one runs at a time, and the executors' is worth more (an application
   * starts one AM and many executors), so in a short first application it is the one that gets made.
   */
  public void makeAfterExecutorsInBackground(String who) {
    makeInBackground(who, true);
  }

  private void makeInBackground(String who, boolean afterExecutors) {
    if (state != State.ABSENT && state != State.REFUSED) {
      return;
    }
    Thread t = new Thread(() -> {
      long yieldUntil = afterExecutors ? clock.nowMs() + YIELD_TO_EXECUTORS.toMillis() : 0;
      Outcome o = make(yieldUntil);
      for (int tries = 1; o.busy() && tries < BUSY_TRIES; tries++) {
        try {
          clock.sleep(BUSY_RETRY.toMillis());
        } catch (InterruptedException e) {
          return;
        }
        o = make(yieldUntil);
      }
      if (o.written()) {
        LOG.info("{} made this node's start-up archive {} ({}): {} that start here from now on"
            + " load their start-up classes from it", who, archive(), o.detail(), users());
      } else {
        LOG.info("{} did not make a start-up archive at {}: {}", who, archive(), o.detail());
      }
    }, "startup-archive");
    t.setDaemon(true);
    t.setPriority(Thread.MIN_PRIORITY);
    making = t;
    t.start();
  }

  /**
   * For a JVM whose work is over: waits up to {@code max} for the archive it is making. Ended with
   * the JVM, the dump is lost, and in a short application (the AM's dump starts once its first
   * executor registered) every later JVM here would start without an archive and be cut off in turn.
   */
  public void awaitMaking(String who, Duration max) throws InterruptedException {
    Thread t = making;
    if (t != null && t.isAlive()) {
      LOG.info("{} waits up to {} s for its start-up archive at {} before it exits", who, max.toSeconds(), archive());
      t.join(max.toMillis());
    }
  }

  /** Makes the archive unless another executor is at it or already made it; never throws. */
  Outcome make() {
    return make(0);
  }

  /**
   * @param yieldUntil until this wall-clock time, waits (as busy) while the executors' archive in
   *     the same directory is missing
   */
  Outcome make(long yieldUntil) {
    try {
      Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } catch (IOException | UnsupportedOperationException e) {
      return new Outcome(false, "cannot create the directory: " + e);
    }
    String notOurs = notOurs(dir);
    if (notOurs != null) {
      return new Outcome(false, notOurs);
    }
    if (clock.nowMs() < yieldUntil
        && !Files.exists(dir.resolve(StartupArchiveLayout.Role.EXECUTOR.archive))) {
      return new Outcome(false, "the executors' archive of this build is not made yet; it goes first", true);
    }
    Path lock = dir.resolve(LOCK);
    try {
      if (!takeLock(lock)) {
        return new Outcome(false, "another JVM on this node is making a start-up archive of this build", true);
      }
    } catch (IOException e) {
      return new Outcome(false, "cannot write in the directory: " + e);
    }
    try {
      return makeHoldingLock();
    } catch (IOException | RuntimeException e) {
      return new Outcome(false, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Outcome(false, "interrupted");
    } finally {
      try {
        Files.deleteIfExists(lock);
      } catch (IOException e) {
        LOG.debug("Could not remove {}: {}", lock, e.toString());
      }
    }
  }

  /**
   * Why JVMs must not take classes from {@code d}, or null: the launch script gives the JVM an
   * archive only from a directory its user owns, and nobody else may be able to write there (a
   * directory set by {@code elasticam.executor.startupArchive.dir} could be shared; the JVM would
   * run whatever jar it found).
   */
  private String notOurs(Path d) {
    try {
      java.nio.file.attribute.UserPrincipal owner = Files.getOwner(d);
      java.nio.file.attribute.UserPrincipal self = Files.getOwner(ownClassList.getParent());
      if (!owner.equals(self)) {
        return "the directory belongs to " + owner.getName() + ", not to this application's user " + self.getName();
      }
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(d);
      if (perms.contains(PosixFilePermission.GROUP_WRITE) || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
        return "others may write in the directory (" + PosixFilePermissions.toString(perms) + ")";
      }
      return null;
    } catch (IOException | UnsupportedOperationException e) {
      return "cannot check who owns the directory: " + e;
    }
  }

  /**
   * The lock names its holder (pid and the process's start time): a lock whose holder is gone —
   * the NodeManager ended its container mid-dump — is taken over at once, and any lock after
   * {@link #STALE_LOCK}, whoever it names.
   */
  boolean takeLock(Path lock) throws IOException {
    ProcessHandle self = ProcessHandle.current();
    String holder = self.pid() + " " + self.info().startInstant().map(i -> i.toEpochMilli()).orElse(0L);
    for (int attempt = 0; attempt < 2; attempt++) {
      try {
        Files.writeString(lock, holder, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE_NEW,
            java.nio.file.StandardOpenOption.WRITE);
        return true;
      } catch (FileAlreadyExistsException e) {
        String why;
        try {
          why = staleBecause(lock);
        } catch (NoSuchFileException gone) {
          continue;
        }
        if (why == null) {
          return false;
        }
        LOG.info("Taking over {}: {}", lock, why);
        Files.deleteIfExists(lock);
      }
    }
    return false;
  }

  /** Why the lock's holder will never release it, or null while it may. */
  private String staleBecause(Path lock) throws IOException {
    long age = clock.nowMs() - Files.getLastModifiedTime(lock).toMillis();
    if (age >= STALE_LOCK.toMillis()) {
      return "left " + Duration.ofMillis(age).toSeconds() + " s ago";
    }
    String[] holder = Files.readString(lock, StandardCharsets.UTF_8).trim().split(" ");
    if (holder.length != 2) {
      return null; // being written this instant, or by another version: wait for the age limit
    }
    try {
      long pid = Long.parseLong(holder[0]);
      long started = Long.parseLong(holder[1]);
      Optional<ProcessHandle> p = ProcessHandle.of(pid);
      boolean same = p.isPresent() && p.get().isAlive()
          && p.get().info().startInstant().map(i -> i.toEpochMilli() == started).orElse(true);
      return same ? null : "process " + pid + ", which was making the archive, is gone";
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private Outcome makeHoldingLock() throws IOException, InterruptedException {
    Path archive = archive();
    Path jar = dir.resolve(StartupArchiveLayout.JAR);
    Path classList = dir.resolve(role.classList);
    if (Files.exists(archive) && (state == State.ABSENT
        || !Files.getLastModifiedTime(archive).equals(refusedArchiveTime))) {
      return new Outcome(false, "another JVM made it since this one started");
    }
    long t0 = clock.nowMs();
    // Whatever the JVM refused goes: nobody may start from it while it is made again.
    Files.deleteIfExists(archive);
    // The directory is named by the jar's digest, so a copy of another size is a broken one. A copy of
    // the right size stays even when this JVM refused its archive: the other role's archive was made
    // from it, and a new copy (a new time) would make the JVM refuse that one in turn.
    if (!Files.exists(jar) || Files.size(jar) != Files.size(sourceJar)) {
      Path tmp = dir.resolve(StartupArchiveLayout.JAR + ".tmp");
      Files.copy(sourceJar, tmp, StandardCopyOption.REPLACE_EXISTING);
      Files.move(tmp, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
    if (Files.exists(ownClassList)) {
      copyWholeLines(ownClassList, classList);
    } else if (!Files.exists(classList)) {
      return new Outcome(false, "no class list: this JVM started with an archive and none was kept");
    }
    Path tmpArchive = dir.resolve(role.archive + ".tmp");
    Files.deleteIfExists(tmpArchive);
    Path log = dir.resolve(role == StartupArchiveLayout.Role.EXECUTOR ? "dump.log" : "am-dump.log");
    List<String> cmd = new ArrayList<>();
    nice().ifPresent(n -> cmd.addAll(List.of(n, "-n", "10")));
    cmd.addAll(List.of(javaCommand.toString(), "-Xshare:dump", "-XX:SharedClassListFile=" + classList,
        "-XX:SharedArchiveFile=" + tmpArchive, "-cp", jar.toString()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    // A JVM told to stop (its application ended) stops the dump and leaves nothing half made.
    Thread cleanup = new Thread(() -> {
      p.destroyForcibly();
      try {
        Files.deleteIfExists(tmpArchive);
        Files.deleteIfExists(dir.resolve(LOCK));
      } catch (IOException e) {
        // the next executor takes the lock over: its holder is gone
      }
    }, "startup-archive-cleanup");
    Runtime.getRuntime().addShutdownHook(cleanup);
    try {
      return finishDump(p, tmpArchive, archive, classList, log, t0);
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(cleanup);
      } catch (IllegalStateException shuttingDown) {
        // the hook runs
      }
    }
  }

  private Outcome finishDump(Process p, Path tmpArchive, Path archive, Path classList, Path log, long t0)
      throws IOException, InterruptedException {
    if (!p.waitFor(DUMP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly();
      Files.deleteIfExists(tmpArchive);
      return new Outcome(false, "the dump did not end in " + DUMP_TIMEOUT.toSeconds() + " s; its output is in " + log);
    }
    if (p.exitValue() != 0 || !Files.exists(tmpArchive)) {
      Files.deleteIfExists(tmpArchive);
      return new Outcome(false, "java -Xshare:dump exited " + p.exitValue() + "; its output is in " + log);
    }
    Files.move(tmpArchive, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    long classes;
    try (var lines = Files.lines(classList, StandardCharsets.UTF_8)) {
      classes = lines.filter(l -> !l.startsWith("@") && !l.startsWith("#")).count();
    }
    pruneOlderBuilds();
    return new Outcome(true, String.format("%d MiB, %d classes listed, in %d ms", Files.size(archive) >> 20, classes,
        clock.nowMs() - t0));
  }

  /** The list as the running JVM wrote it so far, without a last line it may still be writing. */
  private static void copyWholeLines(Path from, Path to) throws IOException {
    byte[] b = Files.readAllBytes(from);
    int end = b.length;
    while (end > 0 && b[end - 1] != '\n') {
      end--;
    }
    Path tmp = to.resolveSibling(to.getFileName() + ".tmp");
    Files.write(tmp, Arrays.copyOf(b, end));
    Files.move(tmp, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** Keeps the {@link #KEEP} newest archives' directories beside this one (this one among them). */
  private void pruneOlderBuilds() {
    Path base = dir.getParent();
    List<Path> builds = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(base, Files::isDirectory)) {
      ds.forEach(builds::add);
    } catch (IOException e) {
      LOG.debug("Could not list {}: {}", base, e.toString());
      return;
    }
    builds.sort(Comparator.comparingLong(NodeStartupArchive::madeAt).reversed());
    for (Path old : builds.subList(Math.min(KEEP, builds.size()), builds.size())) {
      if (!old.equals(dir) && !beingMade(old)) {
        LOG.info("Deleting the start-up archive of an older build, {}", old);
        deleteTree(old);
      }
    }
  }

  private boolean beingMade(Path buildDir) {
    try {
      return clock.nowMs() - Files.getLastModifiedTime(buildDir.resolve(LOCK)).toMillis()
          < STALE_LOCK.toMillis();
    } catch (IOException e) {
      return false;
    }
  }

  /** When the newest of a build's archives was made; 0 with none. */
  private static long madeAt(Path buildDir) {
    long newest = 0;
    for (StartupArchiveLayout.Role r : StartupArchiveLayout.Role.values()) {
      try {
        newest = Math.max(newest, Files.getLastModifiedTime(buildDir.resolve(r.archive)).toMillis());
      } catch (IOException e) {
        // not made for that role
      }
    }
    return newest;
  }

  private static void deleteTree(Path d) {
    try (var walk = Files.walk(d)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          LOG.debug("Could not delete {}: {}", p, e.toString());
        }
      });
    } catch (IOException e) {
      LOG.debug("Could not delete {}: {}", d, e.toString());
    }
  }

  /** {@code nice}, when the node has it: making the archive must not slow the tasks running beside it. */
  private static Optional<String> nice() {
    for (String p : new String[] {"/usr/bin/nice", "/bin/nice"}) {
      if (Files.isExecutable(Path.of(p))) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }
}
