package org.elasticam.executor.tasks;

import org.elasticam.api.Task;
import org.elasticam.api.TaskContext;

/**
 * The task of a {@code streaming --work cpu} batch: keeps one core busy for {@code ms}
 * milliseconds of wall time, so that processing time depends on the cores the executors really get
 * (unlike {@link SleepTask}, whose time does not depend on this machine).
 */
public final class CpuTask implements Task {

  /** Read back so the JIT cannot drop the loop. */
  private static volatile long sink;

  @Override
  public void run(TaskContext ctx) throws Exception {
    long ms = Long.parseLong(ctx.params().getOrDefault("ms", "0"));
    long end = System.nanoTime() + ms * 1_000_000L;
    long x = ctx.partition() + 1;
    while (System.nanoTime() < end) {
      for (int i = 0; i < 10_000; i++) {
        x = x * 6364136223846793005L + 1442695040888963407L;
      }
      if (Thread.interrupted()) {
        throw new InterruptedException("task " + ctx.stageId() + "." + ctx.partition() + " was killed");
      }
    }
    sink = x;
  }
}
