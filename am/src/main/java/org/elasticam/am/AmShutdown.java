package org.elasticam.am;

import static org.elasticam.report.events.EventFields.AM_HEAP_MB;
import static org.elasticam.report.events.EventFields.DIAGNOSTICS;
import static org.elasticam.report.events.EventFields.EXECUTOR_SECONDS;
import static org.elasticam.report.events.EventFields.FINAL_STATUS;

import java.util.function.IntSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.elasticam.engine.job.Outcome;
import org.elasticam.am.yarn.YarnAllocator;
import org.elasticam.conf.ElasticConf;
import org.elasticam.conf.YarnKeys;
import org.elasticam.report.events.Event;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The end of an attempt, in order: executors told to stop and their containers released (waiting
 * briefly for YARN to report them completed, so the event log says how each ended), {@code app_end}
 * written, the staging directory removed, and the application unregistered with its final status.
 */
final class AmShutdown {

  private static final Logger LOG = LoggerFactory.getLogger(AmShutdown.class);
  /** How long the AM waits for the event log's last lines before it unregisters. */
  private static final long EVENT_LOG_FLUSH_MS = 30_000;
  /** How long the AM waits for released containers to be reported completed before it unregisters. */
  private static final long DRAIN_MS = 5_000;
  /**
   * How long executors told to stop have to stop by themselves before their containers are
   * released: an executor stops its tasks and waits up to 5 s for their clean-up (a speculative
   * copy that lost deletes its temporary output); the NodeManager kills a released container's
   * process at once.
   */
  private static final long STOP_GRACE_MS = 6_000;

  private final Configuration conf;
  private final ElasticConf elastic;
  private final AmEnvironment env;

  /** The AM journal, which lives in the staging directory; nothing when there is none. */
  private final AutoCloseable journal;

  AmShutdown(Configuration conf, ElasticConf elastic, AmEnvironment env, AutoCloseable journal) {
    this.conf = conf;
    this.elastic = elastic;
    this.env = env;
    this.journal = journal;
  }

  /**
   * Ends the attempt with {@code jobOutcome}; returns the AM's exit code ({@link AmExitCodes}).
   *
   * @param endOfJob what the job does once every executor is gone (commit or remove its output),
   *     given the outcome, returning the application's final one
   */
  int finish(Outcome jobOutcome, AmRun run, DriverHolder holder, YarnAllocator allocator,
      AMRMClient<ContainerRequest> amClient, String trackingUrl, IntSupplier openSessions,
      java.util.function.UnaryOperator<Outcome> endOfJob) throws Exception {
    run.loop().call(() -> {
      run.amEvents().ending();
      holder.finish(jobOutcome);
      return null;
    });
    awaitExecutorsStopped(run, openSessions);
    run.loop().call(() -> {
      allocator.releaseAll("the application is ending");
      return null;
    });
    drainContainers(run, allocator, amClient);
    Outcome outcome = endOfJob.apply(jobOutcome);
    run.loop().call(() -> {
      run.amEvents().unregisteringWith(allocator.heldContainers());
      return null;
    });
    FinalApplicationStatus status = switch (outcome.status()) {
      case SUCCEEDED -> FinalApplicationStatus.SUCCEEDED;
      case FAILED -> FinalApplicationStatus.FAILED;
      case KILLED -> FinalApplicationStatus.KILLED;
    };
    double seconds = run.loop().call(() -> run.executorSeconds().seconds(run.clock().nowMs()));
    long heapMb = liveHeapMb();
    run.loop().call(() -> {
      run.events().write(Event.APP_END, FINAL_STATUS, status.name(), DIAGNOSTICS, outcome.diagnostics(),
          EXECUTOR_SECONDS, Math.round(seconds * 1000) / 1000.0, AM_HEAP_MB, heapMb);
      return null;
    });
    // The log is written off the event loop; a client that sees the application finished reads it
    // to its app_end.
    if (!run.events().awaitFlushed(EVENT_LOG_FLUSH_MS)) {
      LOG.warn("The event log's last lines were not written within {} ms; unregistering without them",
          EVENT_LOG_FLUSH_MS);
    }
    // Staging goes first: a client that sees the application finished may rely on it being gone,
    // and nothing needs the files now that every container is released. The journal ends before
    // it, or a write still pending would fail there, or make the directory again.
    try {
      journal.close();
    } catch (Exception e) {
      LOG.debug("Closing the AM journal: {}", e.toString());
    }
    cleanUpStaging();
    amClient.unregisterApplicationMaster(status, outcome.diagnostics(), trackingUrl);
    LOG.info("Unregistered with final status {}: {}", status, outcome.diagnostics());
    return exitCode(outcome, allocator);
  }

  /** Executors told to stop close their sessions once their tasks are stopped and cleaned up. */
  private static void awaitExecutorsStopped(AmRun run, IntSupplier openSessions) throws InterruptedException {
    long deadline = run.clock().nowMs() + STOP_GRACE_MS;
    while (openSessions.getAsInt() > 0 && run.clock().nowMs() < deadline) {
      run.clock().sleep(20);
    }
    int left = openSessions.getAsInt();
    if (left > 0) {
      LOG.info("{} executor(s) had not stopped {} ms after they were told to; releasing their containers", left,
          STOP_GRACE_MS);
    }
  }

  /**
   * Sends the releases and waits (briefly) for YARN to report the containers completed, so the
   * executors are gone before we unregister and the event log records how each one ended.
   */
  private static void drainContainers(AmRun run, YarnAllocator allocator, AMRMClient<ContainerRequest> amClient) {
    long deadline = run.clock().nowMs() + DRAIN_MS;
    try {
      while (run.clock().nowMs() < deadline) {
        AllocateResponse r = amClient.allocate(1.0f);
        int held = run.loop().call(() -> {
          allocator.handleResponse(r);
          return allocator.containersHeld();
        });
        if (held == 0) {
          return;
        }
        run.clock().sleep(200);
      }
      LOG.info("Unregistering with containers still held; YARN kills them");
    } catch (Exception e) {
      LOG.warn("Releasing containers at the end failed: {}", e.toString());
    }
  }

  /** The AM's live heap at the end, after a collection: what its state costs to keep. */
  private static long liveHeapMb() {
    System.gc();
    return java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() >> 20;
  }

  static int exitCode(Outcome outcome, YarnAllocator allocator) {
    if (outcome.status() == Outcome.Status.SUCCEEDED) {
      return AmExitCodes.SUCCEEDED;
    }
    if (outcome.status() == Outcome.Status.KILLED) {
      return AmExitCodes.KILLED;
    }
    if (allocator.failure().isPresent()) {
      return AmExitCodes.TOO_MANY_EXECUTOR_FAILURES;
    }
    return outcome.diagnostics().startsWith("The ResourceManager") ? AmExitCodes.RESOURCE_MANAGER
        : outcome.diagnostics().startsWith("internal error") ? AmExitCodes.INTERNAL_ERROR : AmExitCodes.JOB_FAILED;
  }

  private void cleanUpStaging() {
    if (elastic.get(YarnKeys.PRESERVE_STAGING_FILES)) {
      return;
    }
    String dir = env.stagingDir();
    try {
      org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(dir);
      p.getFileSystem(conf).delete(p, true);
    } catch (Exception e) {
      LOG.warn("Could not remove the staging directory {}: {}", dir, e.toString());
    }
  }
}
