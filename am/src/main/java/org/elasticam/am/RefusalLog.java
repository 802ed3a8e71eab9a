package org.elasticam.am;

import java.time.Duration;
import java.util.function.Consumer;
import org.elasticam.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refused control-plane calls, logged so that a flood of them cannot fill the AM's log or its
 * disk: the first of a quiet spell at once, the rest as one line per interval with how many there
 * were and the last reason. Called from gRPC threads and the event loop.
 */
final class RefusalLog implements Consumer<String> {

  private static final Logger LOG = LoggerFactory.getLogger(RefusalLog.class);

  private final Clock clock;
  private final long intervalMs;
  /** Far enough back that the first refusal is logged, near enough that subtracting cannot overflow. */
  private long loggedAtMs = Long.MIN_VALUE / 2;
  private int suppressed;
  private String last;

  RefusalLog(Clock clock, Duration interval) {
    this.clock = clock;
    this.intervalMs = interval.toMillis();
  }

  @Override
  public synchronized void accept(String why) {
    long now = clock.nowMs();
    if (suppressed == 0 && now - loggedAtMs >= intervalMs) {
      LOG.warn("Refused a control-plane call: {}", why);
      loggedAtMs = now;
    } else {
      suppressed++;
      last = why;
    }
  }

  /** Logs what was held back, once an interval has passed since the last line. */
  synchronized void flush() {
    long now = clock.nowMs();
    if (suppressed > 0 && now - loggedAtMs >= intervalMs) {
      LOG.warn("Refused {} more control-plane call(s) in the last {} s; the last: {}", suppressed,
          (now - loggedAtMs) / 1000, last);
      suppressed = 0;
      last = null;
      loggedAtMs = now;
    }
  }

  synchronized int heldBack() {
    return suppressed;
  }
}
