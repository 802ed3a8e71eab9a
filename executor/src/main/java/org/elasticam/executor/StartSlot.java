package org.elasticam.executor;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.util.Map;
import org.elasticam.conf.StartSlotEnv;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The executor's side of its start slot on the node (elasticam.executor.startSlotsPerNode): once
 * registered, one line into the FIFO its launch command made, on which the slot's keeper waits to
 * hand the slot to the next executor starting there. The FIFO is opened read-write, which never
 * waits for a reader: a keeper that is gone costs a line nobody reads, never a blocked executor.
 */
final class StartSlot {

  private static final Logger LOG = LoggerFactory.getLogger(StartSlot.class);

  private StartSlot() {}

  /** Hands the slot on, if the container started in one; true when the line was written. */
  static boolean release(Map<String, String> env) {
    String fifo = env.get(StartSlotEnv.FIFO);
    if (fifo == null || fifo.isEmpty()) {
      return false;
    }
    try (RandomAccessFile f = new RandomAccessFile(fifo, "rw")) {
      f.write('\n');
      LOG.debug("Start slot handed on through {}", fifo);
      return true;
    } catch (IOException e) {
      // The keeper also lets go when this JVM ends: the slot is late, never lost.
      LOG.warn("Could not hand on the start slot through {}: {}; it passes on when this executor ends", fifo,
          e.toString());
      return false;
    }
  }
}
