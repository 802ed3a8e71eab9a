package org.elasticam.sparkref;

import java.io.BufferedWriter;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import org.elasticam.allocator.AllocatorSettings;
import org.elasticam.allocator.ClusterView;
import org.elasticam.allocator.ExecutorAllocator;
import org.elasticam.allocator.dynamic.AllocationPolicies;
import org.elasticam.allocator.dynamic.AllocationPolicy;
import org.elasticam.allocator.dynamic.PolicySettings;
import org.elasticam.allocator.dynamic.StageInfo;
import org.elasticam.allocator.dynamic.TaskInfo;
import org.elasticam.allocator.model.ContainerRef;
import org.elasticam.allocator.model.Grant;
import org.elasticam.allocator.model.LocalityHints;
import org.elasticam.allocator.plan.Action;
import org.elasticam.allocator.plan.Plan;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.api.Stage;
import org.elasticam.api.TaskSpec;
import org.elasticam.conf.ElasticConf;
import org.elasticam.sim.PolicyHarness;
import org.elasticam.workload.Trace;

/**
 * The allocation side at scale — 10,000 executors on 1,000 hosts, 1,000,000 tasks — for
 * {@code spark}, {@code elastic} and {@code spark-reference}:
 * <ol>
 *   <li>heap per tracked executor and per pending task of the AM's structures (allocation core,
 *       task scheduler, policy), measured as live heap after collections, before and after;
 *   <li>time per allocation cycle at that size: the policy's tick and the core's reconcile;
 *   <li>the simulator replaying a million-task trace: events per second and the core's time per
 *       heartbeat.
 * </ol>
 * Prints a markdown report. {@code java ... ScaleBench [--tasks N] [--executors N] [--hosts N]}.
 */
public final class ScaleBench {

  private static final String[] POLICIES = {"spark", "elastic", SparkReferencePolicy.NAME};

  private final int executors;
  private final int hosts;
  private final int tasks;
  private final List<String> hostNames = new ArrayList<>();
  private final Map<String, String> rackOf = new HashMap<>();

  private ScaleBench(int executors, int hosts, int tasks) {
    this.executors = executors;
    this.hosts = hosts;
    this.tasks = tasks;
    for (int h = 0; h < hosts; h++) {
      String name = String.format(Locale.ROOT, "host-%04d", h + 1);
      hostNames.add(name);
      rackOf.put(name, "/rack-" + h / 20);
    }
  }

  public static void main(String[] args) throws Exception {
    Map<String, Integer> a = new HashMap<>(Map.of("--executors", 10_000, "--hosts", 1_000, "--tasks", 1_000_000));
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!a.containsKey(args[i])) {
        System.err.println("scale-bench: unknown option " + args[i] + " (--executors, --hosts, --tasks)");
        System.exit(2);
      }
      a.put(args[i], Integer.parseInt(args[i + 1]));
    }
    new ScaleBench(a.get("--executors"), a.get("--hosts"), a.get("--tasks")).run();
  }

  private PolicySettings settings() {
    return PolicyHarness.withConf(Map.of("elasticam.dynamicAllocation.maxExecutors", String.valueOf(executors)),
        PolicyHarness.World.defaults().withSize(executors, hosts)).settings();
  }

  private static AllocationPolicy policy(String name, PolicySettings s) {
    return AllocationPolicies.create(name, s);
  }

  private void run() throws IOException {
    System.out.printf(Locale.ROOT, "scale: %,d executors, %,d hosts, %,d tasks; java %s, max heap %d MiB%n%n",
        executors, hosts, tasks, System.getProperty("java.version"), Runtime.getRuntime().maxMemory() >> 20);
    memory();
    cycles();
    simulation();
  }

  // ---- 1. heap per executor and per pending task -------------------------------------------------

  private void memory() {
    System.out.println("| structure | per tracked executor (bytes) | per pending task (bytes) |");
    System.out.println("|---|---:|---:|");
    ElasticConf conf = ElasticConf.of(Map.of()).validated();
    row("allocation core (ExecutorAllocator: ledger, asks, containers)",
        () -> new ExecutorAllocator(AllocatorSettings.from(conf)), core -> fillCore(core), null);
    row("task scheduler (TaskScheduler)", this::scheduler, s -> {
      for (int e = 0; e < executors; e++) {
        s.executorUp(String.valueOf(e + 1), hostNames.get(e % hosts));
      }
    }, s -> s.submit(stage(), 0));
    row("the job's stage definition (TaskSpec per task, 3 preferred hosts)", ArrayList<Stage>::new, null,
        l -> l.add(stage()));
    for (String p : POLICIES) {
      PolicySettings s = settings();
      row("policy " + p, () -> policy(p, s), pol -> {
        for (int e = 0; e < executors; e++) {
          pol.executorAdded(String.valueOf(e + 1), 1000, 0);
        }
      }, pol -> pol.stageSubmitted(stageInfo(), 0));
    }
    System.out.println();
  }

  /**
   * One row: the structure is built empty, then grown by the executors (or the pending tasks); the
   * cell is the live heap the growth added, per executor (or task). Each growth starts from a
   * fresh empty structure, so one-time set-up (class loading, Spark's configuration) is not counted.
   */
  private <T> void row(String what, Supplier<T> empty, java.util.function.Consumer<T> addExecutors,
      java.util.function.Consumer<T> addPending) {
    String perExecutor = addExecutors == null ? "–" : String.valueOf(bytesPer(empty, addExecutors, executors));
    String perTask = addPending == null ? "–" : String.valueOf(bytesPer(empty, addPending, tasks));
    System.out.println("| " + what + " | " + perExecutor + " | " + perTask + " |");
  }

  private static <T> long bytesPer(Supplier<T> empty, java.util.function.Consumer<T> grow, int n) {
    T held = empty.get();
    long before = liveHeap();
    grow.accept(held);
    long after = liveHeap();
    java.lang.ref.Reference.reachabilityFence(held);
    return Math.round((after - before) / (double) n);
  }

  private static long liveHeap() {
    for (int i = 0; i < 4; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private ExecutorAllocator runningCore(ElasticConf conf) {
    ExecutorAllocator core = new ExecutorAllocator(AllocatorSettings.from(conf));
    fillCore(core);
    return core;
  }

  /** The core asked for every executor, each ask granted on a host in turn and launched. */
  private void fillCore(ExecutorAllocator core) {
    ClusterView cluster = new ClusterView(hostNames, rackOf, hosts);
    core.requestTotalExecutors(executors, LocalityHints.NONE, Set.of());
    Plan asks = core.reconcile(0, cluster);
    List<Grant> grants = new ArrayList<>();
    int i = 0;
    for (Action.AddAsk ignored : asks.all(Action.AddAsk.class)) {
      String host = hostNames.get(i % hosts);
      grants.add(new Grant(new ContainerRef(String.format(Locale.ROOT, "container_1_0001_01_%06d", i + 2)), host,
          rackOf.get(host), true));
      i++;
    }
    Plan launches = core.onGrants(grants, 1);
    for (Action.LaunchExecutor l : launches.all(Action.LaunchExecutor.class)) {
      core.onLaunched(l.container());
    }
  }

  private TaskScheduler scheduler() {
    return new TaskScheduler(4, java.time.Duration.ofSeconds(3), rackOf::get);
  }

  /** One stage of all the tasks, each preferring 3 random hosts, as blocks of a replicated file. */
  private Stage stage() {
    Random r = new Random(1);
    List<TaskSpec> specs = new ArrayList<>(tasks);
    for (int t = 0; t < tasks; t++) {
      specs.add(new TaskSpec(Map.of(), List.of(hostNames.get(r.nextInt(hosts)), hostNames.get(r.nextInt(hosts)),
          hostNames.get(r.nextInt(hosts)))));
    }
    return new Stage(0, "scale", List.of(), "none", specs);
  }

  private StageInfo stageInfo() {
    Map<String, Integer> perHost = new HashMap<>();
    for (String h : hostNames) {
      perHost.put(h, 3 * tasks / hosts);
    }
    return new StageInfo(0, 0, tasks, tasks, perHost, -1);
  }

  // ---- 2. one cycle at this size ----------------------------------------------------------------

  private void cycles() {
    System.out.printf(Locale.ROOT, "| policy | tick, mean µs (%,d executors busy, the rest of the %,d tasks pending) | "
        + "core reconcile at that target, mean µs |%n", executors, tasks);
    System.out.println("|---|---:|---:|");
    ElasticConf conf = ElasticConf.of(Map.of()).validated();
    ExecutorAllocator core = runningCore(conf);
    ClusterView cluster = new ClusterView(hostNames, rackOf, hosts);
    for (String p : POLICIES) {
      AllocationPolicy pol = policy(p, settings());
      for (int e = 0; e < executors; e++) {
        pol.executorAdded(String.valueOf(e + 1), 1000, 0);
      }
      pol.stageSubmitted(stageInfo(), 0);
      for (int t = 0; t < executors; t++) {
        pol.taskStarted(new TaskInfo(0, 0, t, String.valueOf(t + 1), false), 0);
      }
      long now = 0;
      for (int i = 0; i < 50; i++) {
        pol.tick(now += 100);
      }
      int n = 200;
      long started = System.nanoTime();
      for (int i = 0; i < n; i++) {
        pol.tick(now += 100);
      }
      double tickUs = (System.nanoTime() - started) / 1e3 / n;
      core.requestTotalExecutors(pol.target(), LocalityHints.NONE, Set.of());
      for (int i = 0; i < 20; i++) {
        core.reconcile(now, cluster);
      }
      started = System.nanoTime();
      for (int i = 0; i < n; i++) {
        core.reconcile(now, cluster);
      }
      double reconcileUs = (System.nanoTime() - started) / 1e3 / n;
      System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f |%n", p, tickUs, reconcileUs);
    }
    System.out.println();
  }

  // ---- 3. the simulator on a million tasks ---------------------------------------------------

  private void simulation() throws IOException {
    Path trace = Files.createTempFile("scale-", ".trace.jsonl");
    int stages = Math.max(1, tasks / (2 * executors));
    writeTrace(trace, stages, tasks / stages);
    Trace t;
    try {
      t = Trace.read(trace);
    } catch (org.elasticam.workload.TraceFormatException e) {
      throw new IllegalStateException(e);
    }
    System.out.printf(Locale.ROOT, "trace: %d stages of %,d tasks (5–60 s each, no preferred host; see BENCHMARKS.md on"
        + " delay scheduling at this size)%n%n", stages,
        tasks / stages);
    System.out.println("| policy | wall s | events | events/s | heartbeats | core per heartbeat, mean µs | "
        + "makespan s | executor-s | peak executors |");
    System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (String p : POLICIES) {
      PolicyHarness h = PolicyHarness.withConf(Map.of("elasticam.dynamicAllocation.maxExecutors",
          String.valueOf(executors)), PolicyHarness.World.defaults().withSize(executors, hosts));
      long started = System.nanoTime();
      PolicyHarness.Outcome o = h.run(t, "scale", policy(p, h.settings()));
      double wall = (System.nanoTime() - started) / 1e9;
      System.out.printf(Locale.ROOT, "| %s | %.1f | %,d | %,.0f | %,d | %.0f | %.0f | %,.0f | %,d |%n", p, wall,
          o.events(), o.events() / wall, o.allocatorCycles(), o.allocatorNanos() / 1e3 / Math.max(1,
              o.allocatorCycles()), o.makespanMs() / 1e3, o.executorMs() / 1e3, o.peakExecutors());
    }
    Files.deleteIfExists(trace);
  }

  private void writeTrace(Path f, int stages, int perStage) throws IOException {
    Random r = new Random(7);
    long submit = 0;
    int taskId = 0;
    try (BufferedWriter w = Files.newBufferedWriter(f)) {
      for (int s = 0; s < stages; s++) {
        StringBuilder b = new StringBuilder(perStage * 200);
        long longest = 0;
        b.append("{\"stage_id\":").append(s).append(",\"attempt\":0,\"name\":\"stage ").append(s)
            .append("\",\"submit_ms\":").append(submit).append(",\"parents\":[")
            .append(s == 0 ? "" : String.valueOf(s - 1)).append("],\"tasks\":[");
        for (int i = 0; i < perStage; i++) {
          long d = 5_000 + r.nextInt(55_000);
          longest = Math.max(longest, d);
          b.append(i == 0 ? "" : ",").append("{\"task_id\":").append(taskId++).append(",\"index\":").append(i)
              .append(",\"attempt\":0,\"launch_ms\":").append(submit).append(",\"duration_ms\":").append(d)
              .append(",\"run_ms\":").append(d).append(",\"executor\":\"1\",\"host\":\"\"")
              .append(",\"locality\":\"ANY\",\"speculative\":false,")
              .append("\"status\":\"SUCCESS\"}");
        }
        b.append("],\"complete_ms\":").append(submit + longest).append("}\n");
        w.write(b.toString());
        submit += longest + 2_000;
      }
    }
  }
}
