package org.elasticam.embedded;

import java.io.IOException;
import java.time.Duration;
import java.util.function.Supplier;

/** Waiting for the cluster to reach a state: the one place here that reads the clock. */
final class Poll {

  @FunctionalInterface
  interface Condition {
    boolean holds() throws Exception;
  }

  private Poll() {}

  /**
   * Returns once {@code condition} holds, checking every {@code interval}. After {@code timeout}
   * throws an IOException naming {@code what} and the {@code diagnostics} of that moment. An
   * exception from the condition ends the wait at once.
   */
  static void until(Condition condition, Duration timeout, Duration interval, String what,
      Supplier<String> diagnostics) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!check(condition, what)) {
      if (System.nanoTime() - deadline > 0) {
        throw new IOException("Timed out after " + timeout.toMillis() + " ms waiting for " + what
            + "; " + diagnostics.get());
      }
      Thread.sleep(interval.toMillis());
    }
  }

  private static boolean check(Condition condition, String what) throws IOException, InterruptedException {
    try {
      return condition.holds();
    } catch (IOException | InterruptedException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("while waiting for " + what + ": " + e, e);
    }
  }
}
