package org.elasticam.sim;

import java.util.HashMap;
import java.util.Map;
import org.elasticam.allocator.model.ContainerRef;
import org.elasticam.allocator.model.ExecutorId;

/**
 * The simulated NodeManagers and executor processes: a launched executor registers with the
 * driver after the start latency, which grows with the executors already starting on the same
 * host (JVM starts contend for its cores). One stopped before it registered never registers.
 */
final class SimExecutors implements SimAllocator.Launcher {

  /** An executor that registered with the driver. */
  record Registered(String id, ContainerRef container, String host, int cores, long startLatencyMs) {}

  /** The driver's side: executors arrive and leave. */
  interface Driver {
    void registered(Registered executor);

    /** The executor's container ended on its own; the executor may never have registered. */
    void exited(String executorId);
  }

  private record Starting(ExecutorId id, String host, long askedAtMs) {}

  private final EventQueue time;
  private final SimParams params;
  private final int cores;
  private final SimAllocator allocator;
  private final Map<ContainerRef, Starting> starting = new HashMap<>();
  private final Map<String, Integer> startingOnHost = new HashMap<>();
  private Driver driver;

  SimExecutors(EventQueue time, SimParams params, int cores, SimAllocator allocator) {
    this.time = time;
    this.params = params;
    this.cores = cores;
    this.allocator = allocator;
  }

  void attach(Driver d) {
    this.driver = d;
  }

  @Override
  public void launch(ExecutorId executor, ContainerRef container, String host, long askedAtMs) {
    int already = startingOnHost.getOrDefault(contentionKey(host), 0);
    startingOnHost.put(contentionKey(host), already + 1);
    starting.put(container, new Starting(executor, host, askedAtMs));
    time.after(params.startLatencyMs(already), () -> register(container));
  }

  private void register(ContainerRef container) {
    Starting s = starting.remove(container);
    if (s == null) {
      return;
    }
    doneStarting(s.host);
    allocator.launched(container);
    driver.registered(new Registered(s.id.toString(), container, s.host, cores, time.now() - s.askedAtMs));
  }

  /** The driver released it: it decided so itself, and knows. */
  @Override
  public void stopped(ContainerRef container, ExecutorId executor) {
    Starting s = starting.remove(container);
    if (s != null) {
      doneStarting(s.host);
    }
  }

  @Override
  public void exited(ContainerRef container, ExecutorId executor) {
    stopped(container, executor);
    driver.exited(executor.toString());
  }

  private void doneStarting(String host) {
    startingOnHost.merge(contentionKey(host), -1, Integer::sum);
  }

  /** Whose starts slow each other: the host's, or on one machine everyone's. */
  private String contentionKey(String host) {
    return params.oneMachine() ? "" : host;
  }
}
