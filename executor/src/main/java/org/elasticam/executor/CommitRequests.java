package org.elasticam.executor;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongConsumer;

/**
 * A task's questions to the driver whether it may publish its output, and their answers. The
 * question goes out on the executor's stream to the driver; the task's thread waits for the answer.
 */
final class CommitRequests {

  private final LongConsumer send;
  private final Duration timeout;
  private final Map<Long, CompletableFuture<Boolean>> waiting = new ConcurrentHashMap<>();

  /** @param timeout how long a task waits for the answer before its attempt fails */
  CommitRequests(LongConsumer send, Duration timeout) {
    this.send = send;
    this.timeout = timeout;
  }

  boolean ask(long taskId) throws IOException {
    CompletableFuture<Boolean> answer = new CompletableFuture<>();
    if (waiting.putIfAbsent(taskId, answer) != null) {
      throw new IllegalStateException("task " + taskId + " asked to commit twice at once");
    }
    try {
      send.accept(taskId);
      return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while asking the driver to commit");
    } catch (TimeoutException e) {
      // No answer means no permission: publishing anyway could write the task's output twice.
      throw new IOException("the driver did not answer a commit request within " + timeout.toMillis() + " ms");
    } catch (ExecutionException e) {
      throw new IOException("commit request failed", e.getCause());
    } finally {
      waiting.remove(taskId);
    }
  }

  /** An answer from the driver; one nobody waits for any more (timed out) is dropped. */
  void answered(long taskId, boolean allowed) {
    CompletableFuture<Boolean> f = waiting.get(taskId);
    if (f != null) {
      f.complete(allowed);
    }
  }
}
