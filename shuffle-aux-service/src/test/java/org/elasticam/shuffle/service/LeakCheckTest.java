package org.elasticam.shuffle.service;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The leak check itself: a buffer dropped without release is reported. */
class LeakCheckTest {

  @Test
  void aDroppedBufferIsReported() {
    leak();
    // The detector learns of a collected buffer asynchronously (the reference handler enqueues it):
    // look again for a while before calling it unseen.
    List<String> reports = LeakCheck.collect();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (reports.isEmpty() && System.nanoTime() < deadline) {
      reports = LeakCheck.collect();
    }
    assertFalse(reports.isEmpty(), "the detector saw no leak");
    assertTrue(reports.get(0).startsWith("LEAK: "), reports.get(0));
  }

  private static void leak() {
    ByteBuf b = PooledByteBufAllocator.DEFAULT.buffer(16);
    b.writeInt(1);
  }
}
