package org.elasticam.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.elasticam.conf.StartSlotEnv;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StartSlotTest {

  @TempDir
  Path tmp;

  private Path fifo() throws Exception {
    Path fifo = tmp.resolve("start-slot");
    assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
    return fifo;
  }

  @Test
  void aRegisteredExecutorWritesOneLineIntoItsSlotsFifo() throws Exception {
    Path fifo = fifo();
    Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      // The keeper's side: the FIFO held open read-write, as the launch command's keeper holds it.
      try (RandomAccessFile keeper = new RandomAccessFile(fifo.toFile(), "rw")) {
        assertTrue(StartSlot.release(Map.of(StartSlotEnv.FIFO, fifo.toString())));
        assertEquals('\n', keeper.read());
      }
    });
  }

  @Test
  void aKeeperThatIsGoneNeverHoldsTheExecutorUp() throws Exception {
    Path fifo = fifo();
    Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20),
        () -> assertTrue(StartSlot.release(Map.of(StartSlotEnv.FIFO, fifo.toString()))));
  }

  @Test
  void anExecutorStartedWithoutASlotHasNothingToHandOn() {
    assertFalse(StartSlot.release(Map.of()));
    assertFalse(StartSlot.release(Map.of(StartSlotEnv.FIFO, "")));
  }
}
