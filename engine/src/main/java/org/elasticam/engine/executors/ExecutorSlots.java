package org.elasticam.engine.executors;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.elasticam.engine.scheduling.TaskScheduler;

/**
 * The registered executors and their task slots (cores / task.cpus each), in the order they
 * registered: what the AM's driver and the simulator offer the task scheduler. Owner thread only.
 */
public final class ExecutorSlots {

  /** A registered executor: where it runs and how many tasks it runs at once. */
  public record Executor(String id, String host, int slots) {}

  private final Map<String, Executor> registered = new LinkedHashMap<>();

  public void add(Executor e) {
    registered.put(e.id(), e);
  }

  public Optional<Executor> remove(String id) {
    return Optional.ofNullable(registered.remove(id));
  }

  public Optional<Executor> get(String id) {
    return Optional.ofNullable(registered.get(id));
  }

  public boolean contains(String id) {
    return registered.containsKey(id);
  }

  public int size() {
    return registered.size();
  }

  public boolean isEmpty() {
    return registered.isEmpty();
  }

  public Collection<Executor> all() {
    return List.copyOf(registered.values());
  }

  /**
   * An offer of every executor's free slots, in registration order, but for executors that take no
   * new tasks ({@code offersNothing}: being removed, retiring, draining) and those with none free.
   */
  public List<TaskScheduler.Offer> offers(TaskScheduler scheduler, Predicate<String> offersNothing) {
    List<TaskScheduler.Offer> offers = new ArrayList<>();
    for (Executor e : registered.values()) {
      int free = e.slots() - scheduler.runningOn(e.id());
      if (free > 0 && !offersNothing.test(e.id())) {
        offers.add(new TaskScheduler.Offer(e.id(), e.host(), free));
      }
    }
    return offers;
  }
}
