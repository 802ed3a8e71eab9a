package org.elasticam.allocator.dynamic;

/**
 * How busy the job's executors were lately: running tasks over task slots, sampled every tick over
 * the last {@link #WINDOW} ticks. A busy past says a new executor will find work beyond the current
 * backlog too; an idle one says it will mostly wait.
 */
final class Utilization {

  /** 30 s of 100 ms ticks. */
  static final int WINDOW = 300;

  private final int[] slots = new int[WINDOW];
  private final int[] busy = new int[WINDOW];
  private long slotSum;
  private long busySum;
  private int next;

  void sample(int slotCount, int runningTasks) {
    slotSum -= slots[next];
    busySum -= busy[next];
    slots[next] = slotCount;
    busy[next] = Math.min(runningTasks, slotCount);
    slotSum += slots[next];
    busySum += busy[next];
    next = (next + 1) % WINDOW;
  }

  /** Busy share of the slots held in the window; 1 (assume busy) before anything was held. */
  double busyShare() {
    return slotSum == 0 ? 1.0 : (double) busySum / slotSum;
  }
}
