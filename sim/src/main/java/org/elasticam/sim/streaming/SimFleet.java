package org.elasticam.sim.streaming;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The executors of a simulated streaming job, from ask to departure: an ask is granted after the
 * world's grant delay, the executor then registers after the start latency (longer while others
 * start on its host), and leaves when told to — at once when idle, else when its running tasks end.
 *
 * <p>{@link #reconcile} converges on a target the way the AM's allocator does, level-based:
 * {@code missing = target − live − asked − starting}; missing asks are added (within the world's
 * capacity), surplus asks not yet granted are withdrawn, newest first. An executor already launched
 * is not stopped for a lower target: only the policy's removals stop executors.
 */
final class SimFleet {

  /** The driver's side: executors arrive and leave, and it keeps the executor-time integral. */
  interface Listener {
    void registered(Executor executor);

    void left(Executor executor);
  }

  /** A registered executor; ids are 1, 2, 3, … in order of asking, as the policies' age order expects. */
  static final class Executor {
    final String id;
    final int slots;
    int busy;
    boolean leaving;

    Executor(String id, int slots) {
      this.id = id;
      this.slots = slots;
    }

    boolean canTakeTask() {
      return !leaving && busy < slots;
    }
  }

  private final Events time;
  private final StreamingWorld world;
  private final int slots;
  private final Listener listener;
  /** Asked and not yet granted, by id, oldest first. */
  private final LinkedHashMap<Integer, Long> asked = new LinkedHashMap<>();
  /** Launched and not yet registered: id → contention key. */
  private final Map<Integer, String> starting = new HashMap<>();
  private final Map<String, Integer> startingOn = new HashMap<>();
  private final LinkedHashMap<String, Executor> registered = new LinkedHashMap<>();
  private int nextId = 1;
  private int roundRobin;
  private int asks;
  private int withdrawn;

  SimFleet(Events time, StreamingWorld world, int slotsPerExecutor, Listener listener) {
    this.time = time;
    this.world = world;
    this.slots = slotsPerExecutor;
    this.listener = listener;
  }

  /** Asks for or withdraws asks so that live + asked + starting comes to {@code target}. */
  void reconcile(int target) {
    long missing = (long) target - live() - asked.size() - starting.size();
    int room = world.capacity() - registered.size() - asked.size() - starting.size();
    for (long i = 0; i < Math.min(missing, room); i++) {
      int id = nextId++;
      asked.put(id, time.now());
      asks++;
      time.after(world.grantDelayMs(), () -> grant(id));
    }
    List<Integer> newestFirst = new ArrayList<>(asked.keySet());
    for (int i = newestFirst.size() - 1; i >= 0 && missing < 0; i--, missing++) {
      asked.remove(newestFirst.get(i));
      withdrawn++;
    }
  }

  private void grant(int id) {
    if (asked.remove(id) == null) {
      return;
    }
    String host = "host-" + (roundRobin++ % world.hosts() + 1);
    String key = world.oneMachine() ? "" : host;
    int already = startingOn.getOrDefault(key, 0);
    startingOn.put(key, already + 1);
    starting.put(id, key);
    time.after(world.startLatencyMs(already), () -> register(id));
  }

  private void register(int id) {
    startingOn.merge(starting.remove(id), -1, Integer::sum);
    Executor e = new Executor(Integer.toString(id), slots);
    registered.put(e.id, e);
    listener.registered(e);
  }

  /** The policy chose it: it takes no new task and leaves once idle. Unknown or leaving ids: nothing. */
  void remove(String id) {
    Executor e = registered.get(id);
    if (e == null || e.leaving) {
      return;
    }
    e.leaving = true;
    if (e.busy == 0) {
      leave(e);
    }
  }

  /** One of its tasks ended; a leaving executor goes with its last one. */
  void taskEnded(Executor e) {
    e.busy--;
    if (e.leaving && e.busy == 0) {
      leave(e);
    }
  }

  private void leave(Executor e) {
    registered.remove(e.id);
    listener.left(e);
  }

  /** Registered executors in registration order, including those leaving after their tasks. */
  Collection<Executor> registered() {
    return registered.values();
  }

  /** Registered and not leaving: those that take tasks. */
  int live() {
    int n = 0;
    for (Executor e : registered.values()) {
      if (!e.leaving) {
        n++;
      }
    }
    return n;
  }

  int asksMade() {
    return asks;
  }

  int asksWithdrawn() {
    return withdrawn;
  }
}
