package org.elasticam.am;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.records.AMCommand;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.exceptions.ApplicationAttemptNotFoundException;
import org.elasticam.allocator.HeartbeatSchedule;
import org.elasticam.engine.job.JobEngine;
import org.elasticam.am.metrics.AmMetrics;
import org.elasticam.engine.job.Outcome;
import org.elasticam.am.loop.AmLoop;
import org.elasticam.am.yarn.YarnAllocator;
import org.elasticam.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The heartbeat to the ResourceManager, on its own thread so a slow or failing-over RM never
 * stalls the event loop: the loop prepares the request table, this thread calls {@code allocate},
 * and the loop handles the response. When it heartbeats is {@link HeartbeatSchedule}'s: while
 * requests are pending, or the target lacks executors (one died, and its completion just arrived),
 * quickly, backing off up to the heartbeat interval; a target change wakes it at once. Waiting out
 * the full interval after a completion delayed a dead executor's replacement by up to that interval.
 *
 * <p>Why a synchronous AMRMClient on our own thread rather than AMRMClientAsync: the async client
 * heartbeats at one fixed interval and hands responses to its own callback thread; we want the
 * schedule, the early wake-up, and the response applied on our loop, in order.
 */
final class Heartbeater implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(Heartbeater.class);
  private static final int MAX_CONSECUTIVE_FAILURES = 5;

  private final AMRMClient<ContainerRequest> client;
  private final AmLoop loop;
  private final YarnAllocator allocator;
  private final JobEngine engine;
  private final AmMetrics metrics;
  private final HeartbeatSchedule schedule;
  private final Consumer<Outcome> fail;
  private final java.util.function.LongConsumer resynced;
  private final Clock clock;
  private int lastResponseId;
  private final Semaphore wake = new Semaphore(0);
  private volatile boolean stopped;
  private Thread thread;

  Heartbeater(AMRMClient<ContainerRequest> client, AmLoop loop, YarnAllocator allocator, JobEngine engine,
      AmMetrics metrics, HeartbeatSchedule.Intervals intervals, Consumer<Outcome> fail,
      java.util.function.LongConsumer resynced, Clock clock) {
    this.resynced = resynced;
    this.clock = clock;
    this.client = client;
    this.loop = loop;
    this.allocator = allocator;
    this.engine = engine;
    this.metrics = metrics;
    this.schedule = new HeartbeatSchedule(intervals);
    this.fail = fail;
  }

  void start() {
    thread = new Thread(this, "rm-heartbeat");
    thread.setDaemon(true);
    thread.start();
  }

  /** Heartbeat now, and restart the fast schedule: the target changed. */
  void wakeUp() {
    wake.release();
  }

  @Override
  public void run() {
    int failures = 0;
    while (!stopped) {
      try {
        heartbeatOnce();
        failures = 0;
      } catch (ApplicationAttemptNotFoundException e) {
        fail.accept(Outcome.failed("The ResourceManager no longer knows this attempt: " + e.getMessage()));
        return;
      } catch (InterruptedException e) {
        return;
      } catch (Exception e) {
        failures++;
        LOG.warn("Heartbeat to the ResourceManager failed ({} in a row): {}", failures, e.toString());
        if (failures >= MAX_CONSECUTIVE_FAILURES) {
          fail.accept(Outcome.failed("The ResourceManager could not be reached " + failures + " times in a row: " + e));
          return;
        }
      }
      boolean pending;
      try {
        pending = loop.call(allocator::wantsContainers);
      } catch (Exception e) {
        return;
      }
      long sleep = schedule.sleepAfterHeartbeat(pending);
      try {
        if (wake.tryAcquire(sleep, TimeUnit.MILLISECONDS)) {
          wake.drainPermits();
          schedule.restart();
        }
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void heartbeatOnce() throws Exception {
    float progress = loop.call(() -> {
      allocator.prepareHeartbeat();
      metrics.observe(allocator.target(), allocator.running(), allocator.starting(), allocator.pendingAsks(),
          engine.tasksPending(), engine.tasksRunning());
      return engine.progress();
    });
    long t0 = clock.nowMs();
    AllocateResponse r = client.allocate(progress);
    long took = clock.nowMs() - t0;
    metrics.allocateTook(took);
    // AMRMClient re-registers by itself with a ResourceManager that restarted or failed over, and
    // the response ids start again: the only sign of it we get.
    if (r.getResponseId() <= lastResponseId) {
      resynced.accept(took);
    }
    lastResponseId = r.getResponseId();
    loop.execute(() -> allocator.handleResponse(r));
    if (r.getAMCommand() == AMCommand.AM_SHUTDOWN) {
      fail.accept(Outcome.failed("The ResourceManager told this attempt to shut down"));
      stopped = true;
    }
  }

  /** Stops after the current heartbeat; returns once the thread is gone. */
  void stop() {
    stopped = true;
    wake.release();
    if (thread != null) {
      try {
        // Not interrupted first: an interrupt inside an RPC can wedge Hadoop's IPC client, and the
        // AM still needs it to unregister.
        thread.join(10_000);
        if (thread.isAlive()) {
          thread.interrupt();
          thread.join(5_000);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
