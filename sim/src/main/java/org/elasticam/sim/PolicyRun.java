package org.elasticam.sim;

import static org.elasticam.report.events.EventFields.APP_ID;
import static org.elasticam.report.events.EventFields.ATTEMPT;
import static org.elasticam.report.events.EventFields.CONF;
import static org.elasticam.report.events.EventFields.DIAGNOSTICS;
import static org.elasticam.report.events.EventFields.EXECUTOR_SECONDS;
import static org.elasticam.report.events.EventFields.FINAL_STATUS;

import org.elasticam.report.Timeline;
import java.io.Writer;
import java.util.List;
import org.elasticam.allocator.AllocatorSettings;
import org.elasticam.allocator.ExecutorAllocator;
import org.elasticam.allocator.dynamic.AllocationPolicies;
import org.elasticam.allocator.dynamic.AllocationPolicy;
import org.elasticam.allocator.dynamic.PolicySettings;
import org.elasticam.engine.job.TracePlan;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.conf.ExecutorKeys;
import org.elasticam.workload.Trace;
import org.elasticam.report.events.Event;

/**
 * One policy replaying one trace: wires the real allocator, policy and job engine (with its task
 * scheduler) to the simulated ResourceManager and executors, runs the events until the last task ends, then
 * ends the application as the AM does — every container released, YARN's completions read, and
 * {@code app_end} written with the executor-seconds.
 */
final class PolicyRun {

  private final EventQueue time = new EventQueue();
  private final RunMetrics metrics = new RunMetrics();
  private final Timeline timeline = new Timeline();
  private final EventLogSink log;
  private final SimAllocator allocator;
  private final TaskScheduler scheduler;
  private final StageParallelism parallelism;
  private final SimJob job;
  private final SimHeartbeater heartbeat;
  private final TracePlan plan;
  private final String policyName;
  private final String traceName;
  private final SimConfig config;
  private long makespanMs = -1;

  private PolicyRun(Trace trace, String traceName, String policyName, SimConfig config, Writer eventLog) {
    this(trace, traceName, AllocationPolicies.create(policyName, PolicySettings.from(config.conf())), config,
        eventLog);
  }

  private PolicyRun(Trace trace, String traceName, AllocationPolicy policy, SimConfig config, Writer eventLog) {
    this.traceName = traceName;
    this.policyName = policy.name();
    this.config = config;
    SimParams p = config.params();
    List<String> hosts = p.hostNames();
    this.log = eventLog == null ? EventLogSink.NONE : EventLogSink.to(eventLog, time::now);
    this.plan = TracePlan.of(trace, p.timeScale(), hosts);
    SimResourceManager rm = new SimResourceManager(p.grantMs(), p.capacity(), hosts);
    this.allocator = new SimAllocator(new ExecutorAllocator(AllocatorSettings.from(config.conf())), rm, hosts, time,
        log, metrics);
    this.heartbeat = new SimHeartbeater(time, allocator::heartbeat, allocator::wantsContainers,
        p.heartbeat());
    SimExecutors executors = new SimExecutors(time, p, config.executorCores(), allocator);
    allocator.attach(executors);
    this.scheduler = new TaskScheduler(config.conf().get(ExecutorKeys.TASK_MAX_FAILURES),
        config.conf().get(ExecutorKeys.LOCALITY_WAIT), host -> SimParams.RACK);
    this.parallelism = new StageParallelism(config.maxSlots());
    this.job = new SimJob(time, plan, scheduler, policy, config.conf(), allocator, heartbeat, log, metrics, parallelism,
        this::endApplication);
    executors.attach(job);
  }

  /**
   * @param eventLog where the event log goes, or null for none
   * @throws IllegalArgumentException for a policy name {@link AllocationPolicies} does not know
   * @throws SimulationException when the run cannot finish
   */
  static SimResult run(Trace trace, String traceName, String policyName, SimConfig config, Writer eventLog) {
    return new PolicyRun(trace, traceName, policyName, config, eventLog).run();
  }

  /** A policy instance rather than a name: for checks that wrap policies, as the conformance check does. */
  static PolicyRun of(Trace trace, String traceName, AllocationPolicy policy, SimConfig config, Writer eventLog) {
    return new PolicyRun(trace, traceName, policy, config, eventLog);
  }

  /** Runs to the end; once. */
  SimResult result() {
    return run();
  }

  long eventsRun() {
    return time.executed();
  }

  long allocatorCycleNanos() {
    return allocator.cycleNanos();
  }

  long allocatorCycles() {
    return allocator.cycles();
  }

  private SimResult run() {
    log.write(Event.APP_START, APP_ID, "simulated-" + traceName + "-" + policyName, ATTEMPT, 1, CONF,
        config.conf().resolvedForDisplay());
    heartbeat.start();
    job.start();
    observe();
    while (time.runNext()) {
      observe();
      allocator.failure().ifPresent(d -> {
        throw new SimulationException("the application failed: " + d);
      });
    }
    if (makespanMs < 0) {
      throw new SimulationException("the replay stopped before its last stage (policy " + policyName + ")");
    }
    return new SimResult(policyName, traceName, makespanMs, metrics.executorMs(makespanMs),
        metrics.idleExecutorMs(makespanMs), parallelism.medianMs(), metrics.peakExecutors(), metrics.requestsAdded(),
        metrics.requestsCancelled(), metrics.executorsKilled(), timeline.rows());
  }

  private void observe() {
    timeline.observe(time.now(), allocator.target(), metrics.liveExecutors(), scheduler.pendingTasks(),
        scheduler.runningTasks());
  }

  /** The last task ended: release everything, read the completions, write app_end, stop. */
  private void endApplication() {
    makespanMs = time.now();
    allocator.releaseAll("the application finished");
    allocator.heartbeat();
    log.write(Event.APP_END, FINAL_STATUS, "SUCCEEDED", DIAGNOSTICS, "all " + plan.totalTasks() + " tasks of "
        + plan.totalStages() + " stages succeeded", EXECUTOR_SECONDS,
        SimResult.seconds(metrics.executorMs(makespanMs)));
    time.stop();
  }
}
