package org.elasticam.executor.tasks;

import java.util.Random;
import org.elasticam.api.Task;
import org.elasticam.api.TaskContext;

/**
 * The built-in task of the {@code sleep} and {@code trace} jobs: sleeps {@code ms} milliseconds,
 * then fails with probability {@code failRate} — decided by a hash of (seed, stage, partition,
 * attempt), so a run is repeatable — or always when {@code fail=always}.
 */
public final class SleepTask implements Task {

  @Override
  public void run(TaskContext ctx) throws Exception {
    long ms = Long.parseLong(ctx.params().getOrDefault("ms", "0"));
    Thread.sleep(ms);
    if ("always".equals(ctx.params().get("fail"))) {
      throw new IllegalStateException("task " + ctx.stageId() + "." + ctx.partition() + " fails by design (fail=always)");
    }
    double rate = Double.parseDouble(ctx.params().getOrDefault("failRate", "0"));
    long seed = Long.parseLong(ctx.params().getOrDefault("seed", "0"));
    long mix = seed * 1_000_003L ^ ctx.stageId() * 7_919L ^ ctx.partition() * 104_729L ^ ctx.attempt() * 15_485_863L;
    if (rate > 0 && new Random(mix).nextDouble() < rate) {
      throw new IllegalStateException("task " + ctx.stageId() + "." + ctx.partition() + " attempt " + ctx.attempt()
          + " failed at random (failRate " + rate + ")");
    }
  }
}
