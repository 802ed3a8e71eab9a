package org.elasticam.io.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputCommitTest {

  @TempDir
  java.nio.file.Path dir;

  private final Configuration conf = new Configuration();

  @Test
  void theJobsOutputIsTheCommittedAttemptsFilesAndSuccessNothingElse() throws IOException {
    Path out = out();
    OutputCommit.setupJob(conf, out, false, true);
    // Task 0: attempt 0 committed, its executor was lost, attempt 1 ran again and committed.
    writeAttempt(out, 0, 0, "e1", "part-00000", "old");
    OutputCommit.commitTask(conf, out, 1, 0, OutputCommit.attemptDir(out, 1, 0, 0, "e1"));
    writeAttempt(out, 0, 1, "e2", "part-00000", "new");
    OutputCommit.commitTask(conf, out, 1, 0, OutputCommit.attemptDir(out, 1, 0, 1, "e2"));
    // Task 1: a losing speculative copy left its files; the winner committed.
    writeAttempt(out, 1, 0, "e3", "part-00001", "loser");
    writeAttempt(out, 1, 1, "e4", "part-00001", "winner");
    OutputCommit.commitTask(conf, out, 1, 1, OutputCommit.attemptDir(out, 1, 1, 1, "e4"));
    // Task 2 wrote nothing.
    OutputCommit.commitTask(conf, out, 1, 2, OutputCommit.attemptDir(out, 1, 2, 0, "e5"));

    assertEquals(2, OutputCommit.commitJob(conf, out));
    assertEquals(List.of("_SUCCESS", "part-00000", "part-00001"), list(dir.resolve("out")));
    assertEquals("new", Files.readString(dir.resolve("out/part-00000")));
    assertEquals("winner", Files.readString(dir.resolve("out/part-00001")));
  }

  /**
   * An attempt the driver counted lost (its executor silent past the heartbeat timeout) still runs,
   * and commits after the task's next attempt committed: the job's output is the next attempt's
   * files, once, with nothing of the late one beside or inside them.
   */
  @Test
  void aLostAttemptThatCommitsLateLeavesTheLaterAttemptsOutputAlone() throws IOException {
    Path out = out();
    OutputCommit.setupJob(conf, out, false, true);
    writeAttempt(out, 0, 0, "e1", "part-00000", "zombie");
    writeAttempt(out, 0, 1, "e2", "part-00000", "counted");
    OutputCommit.commitTask(conf, out, 1, 0, OutputCommit.attemptDir(out, 1, 0, 1, "e2"));
    OutputCommit.commitTask(conf, out, 1, 0, OutputCommit.attemptDir(out, 1, 0, 0, "e1"));

    assertEquals(1, OutputCommit.commitJob(conf, out));
    assertEquals(List.of("_SUCCESS", "part-00000"), list(dir.resolve("out")));
    assertEquals("counted", Files.readString(dir.resolve("out/part-00000")));
  }

  @Test
  void anAttemptCommittingTwiceIsRefusedAndTheFirstCommitStays() throws IOException {
    Path out = out();
    OutputCommit.setupJob(conf, out, false, true);
    writeAttempt(out, 0, 0, "e1", "part-00000", "first");
    OutputCommit.commitTask(conf, out, 1, 0, OutputCommit.attemptDir(out, 1, 0, 0, "e1"));
    writeAttempt(out, 0, 0, "e1", "part-00000", "second");
    IOException e = assertThrows(IOException.class,
        () -> OutputCommit.commitTask(conf, out, 1, 0, OutputCommit.attemptDir(out, 1, 0, 0, "e1")));
    assertTrue(e.getMessage().contains("committed already"), e.getMessage());
    OutputCommit.abortTask(conf, OutputCommit.attemptDir(out, 1, 0, 0, "e1"));
    assertEquals(1, OutputCommit.commitJob(conf, out));
    assertEquals("first", Files.readString(dir.resolve("out/part-00000")));
  }

  @Test
  void twoTasksWritingOneNameFailTheCommitWithoutOverwriting() throws IOException {
    Path out = out();
    OutputCommit.setupJob(conf, out, false, true);
    writeAttempt(out, 0, 0, "e1", "data", "a");
    OutputCommit.commitTask(conf, out, 1, 0, OutputCommit.attemptDir(out, 1, 0, 0, "e1"));
    writeAttempt(out, 1, 0, "e1", "data", "b");
    OutputCommit.commitTask(conf, out, 1, 1, OutputCommit.attemptDir(out, 1, 1, 0, "e1"));
    IOException e = assertThrows(IOException.class, () -> OutputCommit.commitJob(conf, out));
    assertTrue(e.getMessage().startsWith("two tasks wrote "), e.getMessage());
    assertEquals("a", Files.readString(dir.resolve("out/data")));
    assertFalse(Files.exists(dir.resolve("out/_SUCCESS")));
  }

  @Test
  void anExistingOutputIsRefusedOverwrittenOrKeptByARestartedAttempt() throws IOException {
    Path out = out();
    Files.createDirectories(dir.resolve("out"));
    Files.writeString(dir.resolve("out/old"), "x");
    assertThrows(OutputCommit.OutputExistsException.class, () -> OutputCommit.setupJob(conf, out, false, true));
    assertTrue(Files.exists(dir.resolve("out/old")), "refused, not touched");
    OutputCommit.setupJob(conf, out, false, false);
    assertTrue(Files.exists(dir.resolve("out/old")), "a restarted attempt keeps what is there");
    OutputCommit.setupJob(conf, out, true, true);
    assertEquals(List.of("_temporary"), list(dir.resolve("out")));
    OutputCommit.abortJob(conf, out);
    assertFalse(Files.exists(dir.resolve("out")));
  }

  @Test
  void anAbortedAttemptLeavesNothing() throws IOException {
    Path out = out();
    OutputCommit.setupJob(conf, out, false, true);
    writeAttempt(out, 0, 0, "e1", "sub/part", "x");
    OutputCommit.abortTask(conf, OutputCommit.attemptDir(out, 1, 0, 0, "e1"));
    assertEquals(List.of(), list(dir.resolve("out/_temporary")));
  }

  private Path out() {
    return new Path(dir.resolve("out").toUri());
  }

  private void writeAttempt(Path out, int partition, int attempt, String executor, String name, String text)
      throws IOException {
    java.nio.file.Path f = java.nio.file.Path.of(
        new Path(OutputCommit.attemptDir(out, 1, partition, attempt, executor), name).toUri());
    Files.createDirectories(f.getParent());
    Files.writeString(f, text);
  }

  private static List<String> list(java.nio.file.Path d) throws IOException {
    try (Stream<java.nio.file.Path> s = Files.list(d)) {
      return s.map(p -> p.getFileName().toString()).filter(n -> !n.endsWith(".crc")).sorted().toList();
    }
  }
}
