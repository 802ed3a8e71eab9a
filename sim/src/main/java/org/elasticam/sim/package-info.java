/**
 * The simulator behind {@code bin/elasticam simulate}: a deterministic discrete-event simulation
 * that drives the <em>real</em> allocation code — {@code ExecutorAllocator} (reconciliation,
 * placement, grant matching, exit classification), the dynamic-allocation policies made by
 * {@code AllocationPolicies}, and the AM's job engine ({@code JobEngine} with its
 * {@code TaskScheduler}) — against a simulated
 * ResourceManager and simulated executors, replaying a workload trace by the replay rule of DESIGN
 * §5 ({@code workload}'s {@code Replay}, the code the AM's {@code trace} job uses).
 *
 * <h2>Shape</h2>
 * {@link org.elasticam.sim.EventQueue} (simulated time and the ordered actions),
 * {@link org.elasticam.sim.SimResourceManager} (request table, capacity, grants, completions),
 * {@link org.elasticam.sim.SimAllocator} (applies the core's plans where the AM's YarnAllocator
 * does), {@link org.elasticam.sim.SimHeartbeater} (the AM heartbeat schedule),
 * {@link org.elasticam.sim.SimExecutors} (start latency, registration),
 * {@link org.elasticam.sim.SimJob} (the AM's job engine on simulated executors: stages, tasks,
 * the policy's events and decisions), {@link org.elasticam.sim.RunMetrics},
 * {@link org.elasticam.sim.StageParallelism} and {@link org.elasticam.report.Timeline} (figures),
 * {@link org.elasticam.sim.Oracle} (the lower bound), {@link org.elasticam.sim.PolicyRun} (one run),
 * and {@link org.elasticam.sim.SimulateMain} (the command).
 *
 * <h2>Determinism</h2>
 * No wall clock: time is the queue's {@code ManualClock}, and actions due at the same millisecond
 * run in the order they were scheduled. Nothing random. No iteration order of a hash-based or
 * {@code Map.of} collection reaches a decision or an output: locality hints are sorted by host
 * before they reach placement (the task scheduler's, as in the AM), executors are offered in registration order, the ResourceManager
 * grants oldest request first. The same inputs give byte-identical outputs.
 *
 * <h2>The simulated world, and how each default was calibrated</h2>
 * Measurements from the embedded cluster ({@code bin/elasticam run}) on a 2-core machine:
 * <ul>
 *   <li><b>Grant latency, {@code --grant-ms 200}.</b> Measured: a container is granted 250–300 ms
 *       after the ask, with a 100 ms NodeManager heartbeat. Part of that is the AM's own polling:
 *       after a target change the AM heartbeats at once, then every 200 ms (the initial allocation
 *       interval), doubling. Here a request can be granted {@code grant-ms} after it reached the
 *       ResourceManager and is delivered with the first heartbeat at or after that, so 200 ms gives
 *       grants 200 ms after the ask — the closest the heartbeat cadence allows to the measured
 *       range: any value from 201 to 600 ms delivers at the heartbeat 600 ms after the ask
 *       (200 + 400). It is also the benchmark setting.</li>
 *   <li><b>Start latency, {@code --start-ms 1000}.</b> Measured: a bare Java container starts in
 *       0.6–0.9 s; an executor also loads its classes and registers over gRPC, so about 1 s from
 *       launch to registration when it starts alone. The benchmark setting is 1 s.</li>
 *   <li><b>Start contention, {@code --start-contention 0.1}.</b> Measured: executors register
 *       1.5–5 s after launch when 4–8 start together — on one 2-core machine hosting every
 *       NodeManager, i.e. 2–4 JVM starts per core. Here a start takes
 *       {@code start-ms * (1 + contention * executors already starting on the same host)}: fitting
 *       the 2-core figures would give about 0.5 per concurrent start, but a cluster host has 8–64
 *       cores, so starts contend far less; 0.1 keeps the effect (the 8th concurrent start on a host
 *       takes 1.7 s) without charging a real cluster for our test machine's two cores. Use
 *       {@code --start-contention 0.5} to reproduce the 2-core measurement.</li>
 *   <li><b>Heartbeat, {@code --heartbeat-ms 3000}</b> and initial allocation interval 200 ms: the
 *       AM's defaults ({@code elasticam.yarn.heartbeat.interval},
 *       {@code initialAllocation.interval}), which follow Spark's, and its Heartbeater's schedule.</li>
 *   <li><b>Cluster, {@code --hosts 20 --capacity 500}.</b> Not measured: a mid-size shared cluster
 *       (25 one-core containers per host); 500 is the benchmark setting. It binds only on
 *       the traces whose stages have thousands of short tasks (the RAPIDS query runs). Capacity
 *       caps the containers the application holds at once, and each host holds at most its share
 *       (capacity / hosts): a request naming hosts that are full lands on another host, as YARN
 *       relaxes a node-local request, instead of stacking every executor of a job whose tasks
 *       prefer two hosts on those two (which no NodeManager's memory allows). Hosts carry locality.
 *       One rack, {@code /default-rack}, as Hadoop's RackResolver names every host of a cluster
 *       without a topology script — so the task scheduler's rack-local level means "any host".</li>
 *   <li><b>Executors</b> have {@code elasticam.executor.cores} cores (default 1) and run
 *       cores / {@code task.cpus} tasks at once; a task runs exactly its replayed duration.</li>
 * </ul>
 *
 * <h2>Configuration</h2>
 * {@code --conf} overrides sit on top of the simulator's defaults, dynamic allocation on and the
 * external shuffle service on ({@code elasticam.shuffle.service.enabled=true}): the comparison
 * assumes the shuffle service, as Spark-on-YARN users of dynamic allocation run it, so no executor
 * is kept alive for its shuffle output. Validation is the submission's.
 */
package org.elasticam.sim;
