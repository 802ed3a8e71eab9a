package org.elasticam.sim.matrix;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.elasticam.workload.Trace;
import org.elasticam.workload.TraceStage;
import org.elasticam.workload.TraceTask;

/**
 * Seeded synthetic workloads, in families whose shapes the recorded traces have too few of. Each
 * family draws its own parameters from the seed, so two seeds of one family are two different jobs
 * of the same kind; the same (family, seed) always gives the same trace.
 *
 * <ul>
 *   <li>{@code small-jobs}: many small jobs (1–3 stages of 1–40 tasks of a few hundred ms to a few
 *       seconds) separated by think time, as a notebook or a scheduler of small reports runs them.</li>
 *   <li>{@code etl-chain}: a long chain of wide stages (20–600 tasks of seconds) with straggler
 *       tails (a few tasks 4–15 x the stage's median), some stages joining a side branch.</li>
 *   <li>{@code wide-short}: wide stages (300–4,000 tasks) of very short tasks (30–400 ms median),
 *       one after another.</li>
 *   <li>{@code interactive}: an interactive session: queries of 1–4 stages, separated by think
 *       times of tens of seconds to minutes, some longer than the default idle timeout.</li>
 * </ul>
 *
 * <p>Times are laid out as if every task ran the moment its stage was submitted (a stage completes
 * at its submission plus its longest task); the replay rule keeps only the gaps and the order.
 * Tasks prefer one of {@link #RECORDED_HOSTS} hosts (NODE_LOCAL) with a family-specific chance.
 */
public final class SyntheticWorkloads {

  /** The families, in the order the matrix lists them. */
  public static final List<String> FAMILIES = List.of("small-jobs", "etl-chain", "wide-short", "interactive");

  /** Distinct recorded hosts the tasks' preferences name. */
  static final int RECORDED_HOSTS = 12;

  private SyntheticWorkloads() {}

  /** @throws IllegalArgumentException for an unknown family */
  public static Trace generate(String family, long seed) {
    SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + family.hashCode());
    Builder b = new Builder(r);
    switch (family) {
      case "small-jobs" -> smallJobs(b, r);
      case "etl-chain" -> etlChain(b, r);
      case "wide-short" -> wideShort(b, r);
      case "interactive" -> interactive(b, r);
      default -> throw new IllegalArgumentException("unknown workload family '" + family + "' (known: "
          + String.join(", ", FAMILIES) + ")");
    }
    return Trace.of(b.stages);
  }

  /** The name a synthetic workload goes by in the matrix: {@code etl-chain#3}. */
  public static String name(String family, long seed) {
    return family + "#" + seed;
  }

  private static void smallJobs(Builder b, SplittableRandom r) {
    int jobs = r.nextInt(15, 51);
    double localShare = r.nextDouble(0, 0.8);
    double meanThinkMs = logUniform(r, 2_000, 20_000);
    long t = 0;
    for (int j = 0; j < jobs; j++) {
      t += (long) (-meanThinkMs * Math.log(1 - r.nextDouble()));
      int stages = r.nextInt(1, 4);
      double medianMs = logUniform(r, 300, 4_000);
      int parent = -1;
      for (int s = 0; s < stages; s++) {
        int tasks = (int) Math.round(logUniform(r, 1, 40));
        long[] d = durations(r, tasks, medianMs, 0.5, 0, 1);
        int id = b.stage(parent, t, d, localShare);
        t = b.completeMs(id) + r.nextLong(0, 300);
        parent = id;
      }
    }
  }

  private static void etlChain(Builder b, SplittableRandom r) {
    int length = r.nextInt(6, 21);
    double localShare = r.nextDouble(0.3, 1.0);
    double stragglerShare = r.nextDouble(0.01, 0.05);
    long t = r.nextLong(0, 2_000);
    int parent = -1;
    int side = -1;
    for (int s = 0; s < length; s++) {
      int tasks = (int) Math.round(logUniform(r, 20, 600));
      double medianMs = logUniform(r, 1_000, 15_000);
      long[] d = durations(r, tasks, medianMs, 0.4, stragglerShare, logUniform(r, 4, 15));
      if (side < 0 && s > 0 && r.nextDouble() < 0.25) {
        // A side branch: a dimension table read beside the chain, joined by the next stage.
        long[] sd = durations(r, (int) Math.round(logUniform(r, 5, 100)), logUniform(r, 500, 5_000), 0.4, 0, 1);
        side = b.stage(-1, t, sd, localShare);
      }
      int id = side >= 0 && parent >= 0 ? b.join(parent, side, r.nextLong(0, 2_000), d, localShare)
          : b.stage(parent, t, d, localShare);
      side = -1;
      t = b.completeMs(id) + r.nextLong(0, 2_000);
      parent = id;
    }
  }

  private static void wideShort(Builder b, SplittableRandom r) {
    int stages = r.nextInt(4, 26);
    double localShare = r.nextDouble(0, 0.9);
    long t = r.nextLong(0, 1_000);
    int parent = -1;
    for (int s = 0; s < stages; s++) {
      int tasks = (int) Math.round(logUniform(r, 300, 4_000));
      long[] d = durations(r, tasks, logUniform(r, 30, 400), 0.6, 0, 1);
      int id = b.stage(parent, t, d, localShare);
      t = b.completeMs(id) + r.nextLong(0, 500);
      parent = r.nextDouble() < 0.8 ? id : -1;
    }
  }

  private static void interactive(Builder b, SplittableRandom r) {
    int queries = r.nextInt(8, 31);
    double localShare = r.nextDouble(0, 0.8);
    double medianThinkMs = logUniform(r, 15_000, 90_000);
    long t = r.nextLong(0, 5_000);
    for (int q = 0; q < queries; q++) {
      int stages = r.nextInt(1, 5);
      int parent = -1;
      double medianMs = logUniform(r, 200, 3_000);
      for (int s = 0; s < stages; s++) {
        int tasks = (int) Math.round(logUniform(r, 5, 300));
        long[] d = durations(r, tasks, medianMs, 0.5, 0.01, 5);
        int id = b.stage(parent, t, d, localShare);
        t = b.completeMs(id) + r.nextLong(0, 200);
        parent = id;
      }
      t += (long) (medianThinkMs * Math.exp(0.6 * r.nextGaussian()));
    }
  }

  /** Log-normal task durations around a median, a share of them stragglers {@code factor} x longer. */
  private static long[] durations(SplittableRandom r, int tasks, double medianMs, double sigma, double stragglerShare,
      double factor) {
    long[] d = new long[Math.max(1, tasks)];
    for (int i = 0; i < d.length; i++) {
      double ms = medianMs * Math.exp(sigma * r.nextGaussian());
      if (r.nextDouble() < stragglerShare) {
        ms *= factor;
      }
      d[i] = Math.max(1, Math.round(ms));
    }
    return d;
  }

  private static double logUniform(SplittableRandom r, double lo, double hi) {
    return Math.exp(r.nextDouble(Math.log(lo), Math.log(hi)));
  }

  /** Stage attempts laid out as if every task started at its stage's submission. */
  private static final class Builder {
    final List<TraceStage> stages = new ArrayList<>();
    final SplittableRandom r;

    Builder(SplittableRandom r) {
      this.r = r;
    }

    int stage(int parent, long submitMs, long[] durations, double localShare) {
      return add(parent < 0 ? List.of() : List.of(parent), submitMs, durations, localShare);
    }

    /** A stage reading two parents, submitted {@code gapMs} after the later one completed. */
    int join(int a, int c, long gapMs, long[] durations, double localShare) {
      long submit = Math.max(completeMs(a), completeMs(c)) + gapMs;
      return add(List.of(a, c), submit, durations, localShare);
    }

    long completeMs(int id) {
      return stages.get(id).completeMs();
    }

    private int add(List<Integer> parents, long submitMs, long[] durations, double localShare) {
      int id = stages.size();
      long submit = submitMs;
      for (int p : parents) {
        submit = Math.max(submit, completeMs(p));
      }
      List<TraceTask> tasks = new ArrayList<>(durations.length);
      long longest = 0;
      for (int i = 0; i < durations.length; i++) {
        boolean local = r.nextDouble() < localShare;
        String host = String.format(Locale.ROOT, "syn-%02d", r.nextInt(RECORDED_HOSTS));
        tasks.add(new TraceTask(i, 0, submit, durations[i], host, local ? "NODE_LOCAL" : "ANY", false,
            TraceTask.SUCCESS));
        longest = Math.max(longest, durations[i]);
      }
      stages.add(new TraceStage(id, 0, "synthetic " + id, submit, submit + longest, parents, tasks));
      return id;
    }
  }
}
