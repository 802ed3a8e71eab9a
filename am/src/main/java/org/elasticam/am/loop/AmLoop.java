package org.elasticam.am.loop;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.elasticam.time.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The AM's one event-loop thread, and its {@link Scheduler}. It owns the allocator, the driver and their state: every YARN
 * response, gRPC message and timer is posted here, so none of that state needs a lock. An
 * exception escaping a task is fatal to the application: state may be half-updated, and carrying
 * on would make later decisions on a lie.
 */
public final class AmLoop implements Executor, Scheduler, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(AmLoop.class);

  private final ScheduledThreadPoolExecutor thread;
  private final Consumer<Throwable> fatal;
  private volatile Thread owner;

  public AmLoop(Consumer<Throwable> fatal) {
    this.fatal = fatal;
    this.thread = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "am-event-loop");
      t.setDaemon(true);
      owner = t;
      return t;
    });
    thread.setRemoveOnCancelPolicy(true);
  }

  @Override
  public void execute(Runnable task) {
    if (!thread.isShutdown()) {
      thread.execute(guarded(task));
    }
  }

  @Override
  public Cancellable schedule(Duration delay, Runnable task) {
    ScheduledFuture<?> f = thread.schedule(guarded(task), Math.max(0, delay.toMillis()), TimeUnit.MILLISECONDS);
    return () -> f.cancel(false);
  }

  @Override
  public Cancellable every(Duration period, Runnable task) {
    ScheduledFuture<?> f =
        thread.scheduleWithFixedDelay(guarded(task), period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    return () -> f.cancel(false);
  }

  /** Runs {@code task} on the loop and waits for its result; for threads other than the loop. */
  public <T> T call(Callable<T> task) throws Exception {
    if (Thread.currentThread() == owner) {
      return task.call();
    }
    Future<T> f = thread.submit(task);
    try {
      return f.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw cause instanceof Exception ex ? ex : new IllegalStateException(cause);
    }
  }

  public boolean inLoop() {
    return Thread.currentThread() == owner;
  }

  private Runnable guarded(Runnable task) {
    return () -> {
      try {
        task.run();
      } catch (Throwable t) {
        LOG.error("Unexpected error on the AM event loop", t);
        fatal.accept(t);
      }
    };
  }

  @Override
  public void close() {
    thread.shutdownNow();
    try {
      thread.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The underlying scheduler, for code that needs one; tasks still run on the loop thread. */
  public ScheduledExecutorService scheduler() {
    return thread;
  }
}
