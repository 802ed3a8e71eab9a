package org.elasticam.am.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.elasticam.report.events.Event;
import org.elasticam.report.events.EventFields;
import org.elasticam.time.ManualClock;
import org.junit.jupiter.api.Test;

/** The event log's lines are written and flushed off the event loop, each one, in order. */
class EventLogWriterTest {

  /** A stream that records what was flushed, whose first flush waits until the test lets it go. */
  private static final class SlowStream extends OutputStream {
    final CountDownLatch firstFlushStarted = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    private final ByteArrayOutputStream written = new ByteArrayOutputStream();
    private final ByteArrayOutputStream flushed = new ByteArrayOutputStream();
    int flushes;
    private boolean closed;

    @Override
    public synchronized void write(int b) {
      written.write(b);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
      written.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
      firstFlushStarted.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        throw new java.io.InterruptedIOException();
      }
      synchronized (this) {
        flushes++;
        flushed.reset();
        flushed.write(written.toByteArray());
      }
    }

    @Override
    public synchronized void close() {
      closed = true;
    }

    synchronized boolean isClosed() {
      return closed;
    }

    synchronized List<String> flushedLines() {
      return new String(flushed.toByteArray(), StandardCharsets.UTF_8).lines().toList();
    }
  }

  @Test
  void theEventLoopDoesNotWaitForAFlushAndLinesThatArriveDuringOneShareTheNext() throws Exception {
    SlowStream out = new SlowStream();
    EventLog log = EventLog.writingTo(out, new ManualClock(0));
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
      log.write(Event.APP_START, EventFields.ATTEMPT, 1);
      assertTrue(out.firstFlushStarted.await(10, TimeUnit.SECONDS), "the first line is flushed at once");
      for (int i = 2; i <= 5; i++) {
        log.write(Event.APP_START, EventFields.ATTEMPT, i);
      }
    }, "writing does not wait for the flush under way");
    assertFalse(log.awaitFlushed(50), "not flushed while the flush is held");
    assertEquals(List.of(), out.flushedLines());

    out.release.countDown();
    assertTrue(log.awaitFlushed(10_000), "every line flushed once the stream goes on");
    List<String> lines = out.flushedLines();
    assertEquals(5, lines.size(), lines.toString());
    for (int i = 0; i < 5; i++) {
      assertTrue(lines.get(i).contains("\"attempt\":" + (i + 1)), "in the order written: " + lines);
    }
    assertEquals(2, out.flushes, "the first line's flush, then one for the four that waited");
    log.close();
    assertTrue(out.isClosed());
    assertEquals(5, log.retainedLines().size());
  }

  @Test
  void closingWaitsUntilEveryLineHandedOverIsWrittenThenClosesTheStream() throws Exception {
    SlowStream out = new SlowStream();
    EventLog log = EventLog.writingTo(out, new ManualClock(0));
    for (int i = 0; i < 100; i++) {
      log.write(Event.APP_START, EventFields.ATTEMPT, i);
    }
    assertTrue(out.firstFlushStarted.await(10, TimeUnit.SECONDS));
    Thread closer = new Thread(log::close);
    closer.start();
    closer.join(200);
    assertTrue(closer.isAlive(), "closing waits for the lines still to be written");
    assertFalse(out.isClosed(), "the stream stays open under the writer");
    out.release.countDown();
    closer.join(10_000);
    assertFalse(closer.isAlive());
    assertEquals(100, out.flushedLines().size());
    assertTrue(out.isClosed());
  }

  @Test
  void aLogFarBehindHoldsTheWriterBackInsteadOfDroppingLines() {
    SlowStream out = new SlowStream();
    out.release.countDown();
    EventLog log = EventLog.writingTo(out, new ManualClock(0));
    for (int i = 0; i < 3 * EventLog.PENDING_LINES; i++) {
      log.write(Event.APP_START, EventFields.ATTEMPT, i);
    }
    log.close();
    List<String> lines = out.flushedLines();
    assertEquals(3 * EventLog.PENDING_LINES, lines.size());
    assertTrue(lines.get(lines.size() - 1).contains("\"attempt\":" + (3 * EventLog.PENDING_LINES - 1)));
  }

  @Test
  void aStreamThatFailsIsAbandonedAndNeitherWritingNorClosingWaitsForIt() {
    abandonsAStreamThatThrows(new IOException("no space left on device"));
  }

  @Test
  void aStreamThatThrowsAnUncheckedExceptionIsAbandonedToo() {
    abandonsAStreamThatThrows(new IllegalStateException("the client is closed"));
  }

  private static void abandonsAStreamThatThrows(Exception failure) {
    OutputStream failing = new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        if (failure instanceof IOException io) {
          throw io;
        }
        throw (RuntimeException) failure;
      }
    };
    EventLog log = EventLog.writingTo(failing, new ManualClock(0));
    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
      for (int i = 0; i < 3 * EventLog.PENDING_LINES; i++) {
        log.write(Event.APP_START, EventFields.ATTEMPT, i);
      }
      assertTrue(log.awaitFlushed(10_000), "a broken log has nothing left to wait for");
      log.close();
    });
    assertEquals(3 * EventLog.PENDING_LINES, log.retainedLines().size(), "the live page still has every line");
  }
}
