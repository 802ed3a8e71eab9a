package org.elasticam.engine.job;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.elasticam.api.Stage;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.report.events.Event;
import org.elasticam.time.ManualClock;
import org.elasticam.time.ManualScheduler;

/**
 * A job engine on a manual scheduler, its executors recording links and its allocator a recording
 * port: tests see what it decides, at what time, with no threads and no waiting.
 */
final class EngineHarness {

  final ManualScheduler time = new ManualScheduler(new ManualClock(1_000_000));
  final Allocator allocator = new Allocator();
  /** Every event written, as name and fields. */
  final List<Written> events = new ArrayList<>();
  Outcome outcome;

  /** One event as the engine wrote it. */
  record Written(Event event, List<Object> kv) {
    Object field(String name) {
      for (int i = 0; i + 1 < kv.size(); i += 2) {
        if (name.equals(kv.get(i))) {
          return kv.get(i + 1);
        }
      }
      return null;
    }
  }

  /** What the executor was told. */
  static class Link implements ExecutorLink {
    final List<TaskLaunch> launched = new ArrayList<>();
    final List<Long> killed = new ArrayList<>();
    final List<byte[]> credentials = new ArrayList<>();
    String refused;
    boolean registered;
    boolean ended;
    String shutdown;

    @Override
    public void registered(String appId, long heartbeatIntervalMs) {
      registered = true;
    }

    @Override
    public void launch(TaskLaunch launch) {
      launched.add(launch);
    }

    @Override
    public void kill(long taskId) {
      killed.add(taskId);
    }

    @Override
    public void commitAnswer(long taskId, boolean allowed) {}

    @Override
    public void credentials(byte[] tokens) {
      credentials.add(tokens);
    }

    @Override
    public void shutdown(String reason) {
      shutdown = reason;
    }

    @Override
    public void refuse(String why) {
      refused = why;
    }

    @Override
    public void end() {
      ended = true;
    }
  }

  /** The allocator as the engine sees it: executors launched in containers c<id> on h<id>, and what it was asked. */
  static final class Allocator implements AllocatorPort {
    final Map<String, String> launched = new LinkedHashMap<>();
    final List<String> killed = new ArrayList<>();
    final List<String> failed = new ArrayList<>();
    int target = -1;
    Set<String> excluded = Set.of();

    @Override
    public boolean requestTotalExecutors(int target, int localityAwareTasks, Map<String, Integer> hostToLocalTaskCount,
        Set<String> excludedNodes) {
      boolean changed = target != this.target;
      this.target = target;
      this.excluded = excludedNodes;
      return changed;
    }

    @Override
    public void killExecutor(String executorId, String reason) {
      killed.add(executorId + ": " + reason);
      launched.remove(executorId);
    }

    @Override
    public void killFailedExecutor(String executorId, String why) {
      failed.add(executorId + ": " + why);
      launched.remove(executorId);
    }

    @Override
    public Optional<Launched> launched(String executorId) {
      return Optional.ofNullable(launched.get(executorId)).map(c -> new Launched(c, "h" + executorId, 0));
    }
  }

  /** The settings the tests start from: two static executors, 2 attempts per task, no locality wait. */
  static DriverSettings settings(double minRegisteredRatio, Duration maxRegisteredWait) {
    return new DriverSettings("app_1", 2, 1, 2, Duration.ZERO, Duration.ofMillis(200), Duration.ofSeconds(10),
        Duration.ofSeconds(30), minRegisteredRatio, maxRegisteredWait, Duration.ofSeconds(6),
        DriverSettings.ExcludeOnFailure.OFF);
  }

  /** {@code stages} stages of {@code tasks} tasks, each reading the one before. */
  static JobPlan chain(int stages, int tasks) {
    List<Stage> list = new ArrayList<>();
    for (int s = 0; s < stages; s++) {
      Stage.Builder b = Stage.builder(s, "stage " + s, "T").tasks(tasks);
      list.add(s == 0 ? b.build() : b.parents(s - 1).build());
    }
    return new DagPlan(list);
  }

  /** An engine for {@code plan} with static allocation, not started. */
  JobEngine engine(DriverSettings settings, JobPlan plan) {
    return engine(settings, plan, JobPolicies.STATIC);
  }

  JobEngine engine(DriverSettings settings, JobPlan plan, JobPolicies policies) {
    return new JobEngine(settings, plan, new TaskScheduler(settings.maxTaskFailures(), Duration.ZERO, h -> null),
        new EnginePorts(time, time.clock(), allocator, (event, kv) -> events.add(new Written(event, List.of(kv)))),
        policies, o -> outcome = o);
  }

  /** Executor {@code id} registers from host h{@code id} with 2 cores, launched by us in container c{@code id}. */
  JobEngine.Session register(JobEngine e, String id, Link link) {
    allocator.launched.putIfAbsent(id, "c" + id);
    return e.register(link, new Registration(id, "h" + id, "c" + id, 2, 100, "17", "/jdk", List.of("/d"), true,
        Map.of()));
  }

  /** Every attempt the link was told to start, reported succeeded; returns how many. */
  static int succeedAll(JobEngine e, JobEngine.Session s, Link link) {
    List<TaskLaunch> now = List.copyOf(link.launched);
    link.launched.clear();
    for (TaskLaunch t : now) {
      e.taskReported(s, new TaskReport(t.attempt().taskId(), TaskReport.State.SUCCEEDED, "", 0, null));
    }
    return now.size();
  }

  /** The names of the events written, in order. */
  List<String> names() {
    return events.stream().map(w -> w.event().wireName()).toList();
  }

  List<Written> named(Event event) {
    return events.stream().filter(w -> w.event() == event).toList();
  }
}
