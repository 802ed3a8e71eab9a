package org.elasticam.sim.matrix;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The robustness matrix: every workload (the recorded traces and seeded synthetic ones) under
 * cluster conditions drawn, seeded, over the ranges real clusters have, plus the corners of those
 * ranges. Two slices with disjoint seeds: {@code tuning}, which rules may be judged on, and
 * {@code heldout}, kept out of that judgement and reported separately.
 *
 * <p>Ranges, each drawn independently per case: time scale 0.1–10 (log-uniform), executor start
 * latency 0.5–10 s (log-uniform; the simulator's per-host contention on top), grant latency
 * 0.1–2 s and AM heartbeat 0.1–3 s (log-uniform), capacity 20–1,000 containers (log-uniform) or
 * unconstrained (one case in four), executor cores 1–8 (uniform; task.cpus 1).
 *
 * <p>Corners (tuning slice only; the others at {@link Conditions#BASELINE}): each range's ends
 * alone — time scale 0.1 and 10, start 0.5 and 10 s, grant 0.1 and 2 s, heartbeat 0.1 s (3 s is the
 * baseline), capacity 20 and unconstrained, 8 cores (1 is the baseline); everything slow and small
 * at once (start 10 s, grant 2 s, heartbeat 3 s, 20 containers, 8 cores) at time scale 0.1 and 10;
 * everything fast (start 0.5 s, grant and heartbeat 0.1 s, unconstrained, 1 core); and a typical
 * production queue (start 5 s, grant 1 s, heartbeat 3 s, 100 containers, 4 cores).
 *
 * <p>Deterministic: the same slice and trace list give the same cases.
 */
public final class RobustnessMatrix {

  public static final String TUNING = "tuning";
  public static final String HELDOUT = "heldout";
  public static final List<String> SLICES = List.of(TUNING, HELDOUT);

  /** Conditions drawn per workload and slice. */
  static final int DRAWN_PER_WORKLOAD = 6;
  static final long TUNING_SEED = 20_261_126L;
  static final long HELDOUT_SEED = 7_700_417L;
  static final List<Long> TUNING_WORKLOAD_SEEDS = List.of(1L, 2L, 3L);
  static final List<Long> HELDOUT_WORKLOAD_SEEDS = List.of(101L, 102L, 103L);

  /** One named corner. */
  public record Corner(String name, Conditions conditions) {}

  private RobustnessMatrix() {}

  /** The workloads of a slice: the given recorded traces, then each synthetic family at the slice's seeds. */
  public static List<String> workloads(String slice, List<String> traces) {
    List<String> out = new ArrayList<>(traces);
    for (String family : SyntheticWorkloads.FAMILIES) {
      for (long seed : slice.equals(TUNING) ? TUNING_WORKLOAD_SEEDS : HELDOUT_WORKLOAD_SEEDS) {
        out.add(SyntheticWorkloads.name(family, seed));
      }
    }
    return out;
  }

  /**
   * Every case of the slice, workload by workload.
   *
   * @param traces the recorded traces' names (their files' names without {@code .trace.jsonl})
   */
  public static List<MatrixCase> cases(String slice, List<String> traces) {
    if (!SLICES.contains(slice)) {
      throw new IllegalArgumentException("unknown slice '" + slice + "' (known: " + String.join(", ", SLICES) + ")");
    }
    List<MatrixCase> out = new ArrayList<>();
    for (String w : workloads(slice, traces)) {
      SplittableRandom r = new SplittableRandom((slice.equals(TUNING) ? TUNING_SEED : HELDOUT_SEED) ^ mix(w));
      for (int i = 0; i < DRAWN_PER_WORKLOAD; i++) {
        out.add(new MatrixCase(slice, w, "d" + i, draw(r)));
      }
      if (slice.equals(TUNING)) {
        for (Corner c : corners()) {
          out.add(new MatrixCase(slice, w, c.name(), c.conditions()));
        }
      }
    }
    return out;
  }

  /** Every {@link #GUARD_STRIDE}-th case of the tuning slice makes the CI guard's slice. */
  static final int GUARD_STRIDE = 17;

  /**
   * The CI guard's fixed slice: every {@link #GUARD_STRIDE}-th case of the tuning slice, from the
   * first. The stride is prime to the 20 cases of a workload, so the slice goes through every
   * draw and corner as it goes through the workloads. Chosen by position, not by outcome.
   */
  public static List<MatrixCase> guard(List<String> traces) {
    List<MatrixCase> tuning = cases(TUNING, traces);
    List<MatrixCase> out = new ArrayList<>();
    for (int i = 0; i < tuning.size(); i += GUARD_STRIDE) {
      out.add(tuning.get(i));
    }
    return out;
  }

  /** Conditions drawn over the ranges. */
  static Conditions draw(SplittableRandom r) {
    double timeScale = logUniform(r, 0.1, 10);
    long startMs = Math.round(logUniform(r, 500, 10_000) / 10) * 10;
    long grantMs = Math.round(logUniform(r, 100, 2_000) / 10) * 10;
    long heartbeatMs = Math.round(logUniform(r, 100, 3_000) / 10) * 10;
    int capacity = r.nextDouble() < 0.25 ? Conditions.UNCONSTRAINED : (int) Math.round(logUniform(r, 20, 1_000));
    int cores = r.nextInt(1, 9);
    return new Conditions(Math.round(timeScale * 100) / 100.0, startMs, grantMs, heartbeatMs, capacity, cores);
  }

  public static List<Corner> corners() {
    Conditions b = Conditions.BASELINE;
    int inf = Conditions.UNCONSTRAINED;
    return List.of(
        new Corner("ts0.1", new Conditions(0.1, b.startMs(), b.grantMs(), b.heartbeatMs(), b.capacity(), 1)),
        new Corner("ts10", new Conditions(10, b.startMs(), b.grantMs(), b.heartbeatMs(), b.capacity(), 1)),
        new Corner("start0.5", new Conditions(1, 500, b.grantMs(), b.heartbeatMs(), b.capacity(), 1)),
        new Corner("start10", new Conditions(1, 10_000, b.grantMs(), b.heartbeatMs(), b.capacity(), 1)),
        new Corner("grant0.1", new Conditions(1, b.startMs(), 100, b.heartbeatMs(), b.capacity(), 1)),
        new Corner("grant2", new Conditions(1, b.startMs(), 2_000, b.heartbeatMs(), b.capacity(), 1)),
        new Corner("hb0.1", new Conditions(1, b.startMs(), b.grantMs(), 100, b.capacity(), 1)),
        new Corner("cap20", new Conditions(1, b.startMs(), b.grantMs(), b.heartbeatMs(), 20, 1)),
        new Corner("capinf", new Conditions(1, b.startMs(), b.grantMs(), b.heartbeatMs(), inf, 1)),
        new Corner("cores8", new Conditions(1, b.startMs(), b.grantMs(), b.heartbeatMs(), b.capacity(), 8)),
        new Corner("slow-small-ts0.1", new Conditions(0.1, 10_000, 2_000, 3_000, 20, 8)),
        new Corner("slow-small-ts10", new Conditions(10, 10_000, 2_000, 3_000, 20, 8)),
        new Corner("fast", new Conditions(1, 500, 100, 100, inf, 1)),
        new Corner("typical", new Conditions(1, 5_000, 1_000, 3_000, 100, 4)));
  }

  private static double logUniform(SplittableRandom r, double lo, double hi) {
    return Math.exp(r.nextDouble(Math.log(lo), Math.log(hi)));
  }

  /** A stable 64-bit hash of a workload's name (String.hashCode is only 32 bits). */
  private static long mix(String s) {
    long h = 1125899906842597L;
    for (int i = 0; i < s.length(); i++) {
      h = 31 * h + s.charAt(i);
    }
    return h;
  }
}
