package org.elasticam.am.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.util.concurrent.MoreExecutors;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.elasticam.allocator.ledger.HeldContainer;
import org.elasticam.allocator.model.ContainerRef;
import org.elasticam.allocator.model.ExecutorId;
import org.elasticam.rpc.journal.AmJournal;
import org.elasticam.rpc.journal.JournalMapOutput;
import org.elasticam.rpc.journal.JournalStage;
import org.elasticam.rpc.journal.StreamProgress;
import org.elasticam.time.ManualClock;
import org.elasticam.time.ManualScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The journal on a real (local) file system, as a second attempt reads it. */
class RecoveryJournalTest {

  @TempDir
  Path staging;

  private final Configuration conf = new Configuration();
  private final AtomicLong completedMs = new AtomicLong();

  private String dir() {
    return staging.toUri().toString();
  }

  private static HeldContainer container(int id, String host) {
    return new HeldContainer(new ContainerRef("container_1_0001_01_00000" + id), new ExecutorId(id), host,
        HeldContainer.State.STARTING, 1_000L * id, 900);
  }

  @Test
  void aSecondAttemptReadsWhatTheFirstRecorded() throws Exception {
    try (RecoveryJournal j = RecoveryJournal.start(conf, dir(), 1, 1, List.of(), List.of(), List.of(),
        StreamProgress.getDefaultInstance(), completedMs::get)) {
      j.launching(List.of(container(1, "h1"), container(2, "h2")), 3);
      // Launches are on disk when launching returns, before any container is started.
      assertEquals(2, RecoveryJournal.read(conf, dir()).orElseThrow().getExecutorsCount());
      j.taskSucceeded(0, 0, JournalMapOutput.newBuilder().setMapId(0).setExecutorId("1").build());
      j.taskSucceeded(1, 3, null);
      j.stageCompleted(JournalStage.newBuilder().setStageId(0).setCompletedAtMs(5_000).addOutputs(
          JournalMapOutput.newBuilder().setMapId(0).setExecutorId("1").setHost("h1").setPort(7337).setExternal(true))
          .build());
      completedMs.set(4_200);
      j.completed("container_1_0001_01_000002");
      // A re-run of lost maps replaces the stage's record instead of adding a second one.
      j.stageCompleted(JournalStage.newBuilder().setStageId(0).setCompletedAtMs(9_000).build());
      j.streamProgress(StreamProgress.newBuilder().setStartMs(100).setBatchesDone(4).build());
    }
    AmJournal read = RecoveryJournal.read(conf, dir()).orElseThrow();
    assertEquals(1, read.getAttempt());
    assertEquals(3, read.getNextExecutorId());
    assertEquals(List.of(1), read.getExecutorsList().stream().map(e -> e.getExecutorId()).toList());
    assertEquals("h1", read.getExecutors(0).getHost());
    assertEquals(1_000, read.getExecutors(0).getGrantedAtMs());
    assertEquals(1, read.getCompletedStagesCount());
    assertEquals(9_000, read.getCompletedStages(0).getCompletedAtMs());
    assertEquals(4_200, read.getCompletedExecutorMs());
    assertEquals(4, read.getStream().getBatchesDone());
    // Stage 0 completed, so it left the running ones; stage 1 still runs with task 3 done.
    assertEquals(1, read.getRunningStagesCount());
    assertEquals(1, read.getRunningStages(0).getStageId());
    assertEquals(List.of(3), read.getRunningStages(0).getDoneTasksList());
  }

  @Test
  void aStagingDirectoryRemovedAtTheEndStaysRemoved() throws Exception {
    Path app = Files.createDirectory(staging.resolve("application_1_0001"));
    RecoveryJournal j = RecoveryJournal.start(conf, app.toUri().toString(), 1, 1, List.of(), List.of(), List.of(),
        StreamProgress.getDefaultInstance(), completedMs::get);
    j.launching(List.of(container(1, "h1")), 2);
    // A change still on its way when the directory goes fails; it does not make the directory again.
    assertTrue(org.apache.hadoop.fs.FileUtil.fullyDelete(app.toFile()));
    j.taskSucceeded(0, 0, null);
    j.close();
    assertFalse(Files.exists(app), "made again by a late write");
    // Once closed (the AM does so before it removes the directory), changes are not written at all.
    Files.createDirectory(app);
    j.completed("container_1_0001_01_000001");
    j.stageCompleted(JournalStage.newBuilder().setStageId(0).build());
    j.close();
    assertEquals(List.of(), listing(app));
  }

  @Test
  void aReaderNeverFindsTheJournalMissingWhileItIsReplaced() throws Exception {
    StagingFiles files = new StagingFiles(conf, dir());
    files.replace(RecoveryJournal.NAME, new byte[] {0});
    java.util.concurrent.atomic.AtomicBoolean writing = new java.util.concurrent.atomic.AtomicBoolean(true);
    Thread writer = new Thread(() -> {
      try {
        for (int i = 0; i < 400; i++) {
          files.replace(RecoveryJournal.NAME, new byte[] {(byte) i, 1, 2, 3});
        }
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      } finally {
        writing.set(false);
      }
    });
    writer.start();
    int reads = 0;
    int missing = 0;
    while (writing.get()) {
      reads++;
      if (files.read(RecoveryJournal.NAME).isEmpty()) {
        missing++;
      }
    }
    writer.join();
    assertTrue(reads > 0);
    assertEquals(0, missing, "reads that found no file, of " + reads);
    assertEquals(List.of(RecoveryJournal.NAME), listing(staging), "no temporary or checksum file left beside it");
  }

  @Test
  void aFailedWriteIsTriedAgainWithoutAFurtherChange() throws Exception {
    ManualScheduler timer = new ManualScheduler(
        new ManualClock(0));
    // Writes on this thread, so each change's write has happened when the change returns.
    try (RecoveryJournal j = RecoveryJournal.start(conf, dir(), 1, 1, List.of(), List.of(), List.of(),
        StreamProgress.getDefaultInstance(), completedMs::get,
        MoreExecutors.newDirectExecutorService())) {
      j.retryOn(timer);
      // The temporary name taken by a directory: every write fails until it goes.
      Path blocker = Files.createDirectories(staging.resolve("." + RecoveryJournal.NAME + ".tmp").resolve("x"));
      j.stageCompleted(JournalStage.newBuilder().setStageId(0).setCompletedAtMs(5_000).build());
      assertEquals(0, RecoveryJournal.read(conf, dir()).orElseThrow().getCompletedStagesCount());
      assertEquals(1, timer.pending(), "a retry waits");
      timer.advance(RecoveryJournal.RETRY);
      assertEquals(0, RecoveryJournal.read(conf, dir()).orElseThrow().getCompletedStagesCount());
      assertEquals(1, timer.pending(), "and another, while it fails");
      assertTrue(org.apache.hadoop.fs.FileUtil.fullyDelete(blocker.getParent().toFile()));
      timer.advance(RecoveryJournal.RETRY);
      assertEquals(1, RecoveryJournal.read(conf, dir()).orElseThrow().getCompletedStagesCount(),
          "the completed stage reached the disk with no later change");
      assertEquals(0, timer.pending(), "no retry once written");
    }
  }

  private static List<String> listing(Path dir) throws IOException {
    try (var s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).toList();
    }
  }

  @Test
  void noJournalIsNoRecoveryAndACorruptOneIsAnError() throws Exception {
    assertTrue(RecoveryJournal.read(conf, dir()).isEmpty());
    Files.write(staging.resolve(RecoveryJournal.NAME), new byte[] {(byte) 0xff, 0x13, 0x07});
    IOException e = assertThrows(IOException.class, () -> RecoveryJournal.read(conf, dir()));
    assertTrue(e.getMessage().contains("corrupt"), e.getMessage());
  }

  @Test
  void theEndpointFileNamesThisAttemptsControlPlane() throws Exception {
    EndpointFile.publish(conf, dir(), "127.0.0.3", 4711);
    EndpointFile.publish(conf, dir(), "127.0.0.2", 4712);
    assertEquals("127.0.0.2:4712\n", Files.readString(staging.resolve(EndpointFile.NAME)));
    assertEquals(org.elasticam.executor.DriverEndpoint.parse("127.0.0.2:4712"), org.elasticam.executor.DriverEndpointFile
        .read(java.net.URI.create(EndpointFile.uri(conf, dir()))).orElseThrow());
  }
}
