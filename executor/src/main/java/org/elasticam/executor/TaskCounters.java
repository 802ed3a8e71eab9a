package org.elasticam.executor;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.elasticam.api.Counter;
import org.elasticam.api.Counters;

/**
 * One attempt's counters: the task's own, through {@link #forTask}, which keeps {@link Counters}'
 * rules, and the executor's built-in ones, through {@link #builtIn}. Any of the attempt's threads
 * may add; {@link #values()} is read once it has ended.
 */
final class TaskCounters {

  private final Map<String, Adder> byName = new ConcurrentHashMap<>();

  /** The task's counter {@code name}; see {@link org.elasticam.api.TaskContext#counter}. */
  Counter forTask(String name) {
    Counters.checkName(name);
    if (name.startsWith(Counters.RESERVED_PREFIX)) {
      throw new IllegalArgumentException("counter " + name + ": names under " + Counters.RESERVED_PREFIX
          + " are the executor's own");
    }
    return get(name);
  }

  /** A counter the executor keeps for the task (one of {@link Counters}' built-in names). */
  Counter builtIn(String name) {
    return get(name);
  }

  private Counter get(String name) {
    Adder c = byName.get(name);
    return c != null ? c : create(name);
  }

  private synchronized Counter create(String name) {
    Adder c = byName.get(name);
    if (c != null) {
      return c;
    }
    if (byName.size() >= Counters.MAX_PER_TASK) {
      throw new IllegalStateException("counter " + name + ": an attempt may use at most " + Counters.MAX_PER_TASK
          + " counter names (org.elasticam.api.Counters.MAX_PER_TASK), and this one has them all");
    }
    c = new Adder();
    byName.put(name, c);
    return c;
  }

  /** Every counter the attempt used, by name in name order. */
  Map<String, Long> values() {
    Map<String, Long> out = new TreeMap<>();
    byName.forEach((name, c) -> out.put(name, c.value()));
    return out;
  }

  private static final class Adder implements Counter {
    private final LongAdder sum = new LongAdder();

    @Override
    public void add(long n) {
      sum.add(n);
    }

    @Override
    public long value() {
      return sum.sum();
    }
  }
}
