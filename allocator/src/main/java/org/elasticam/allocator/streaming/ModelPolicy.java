package org.elasticam.allocator.streaming;

import static org.elasticam.allocator.streaming.StreamingPolicies.ceil;
import static org.elasticam.allocator.streaming.StreamingPolicies.clamp;
import static org.elasticam.allocator.streaming.StreamingPolicies.num;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.List;

/**
 * Our streaming policy: it learns what a record costs and sizes the fleet for the next batch in one
 * step, instead of reacting to one ratio. Failed batches are ignored.
 *
 * <ul>
 *   <li><b>The model.</b> A batch's processing time P is fitted as {@code P ≈ a·x + b}, with x = records
 *       per executor (the executors registered when the batch was submitted): a is the cost of a
 *       record, b the per-batch overhead (scheduling, commit). Least squares over the last
 *       {@value #WINDOW} batches, refitted after each. When x barely varied (relative spread below
 *       {@value #FLAT_SPREAD}, as under steady load) the fitted b is noise: b is then the smallest
 *       processing time seen for a nearly empty batch (at most {@value #SMALL_BATCH} of the largest
 *       batch's records), else 0, and a = (mean P − b) / mean x. With b = 0 this overstates a by the
 *       overhead, but it is self-consistent: at the fleet it recommends, it predicts what was
 *       measured. a ≥ 0 and b ≥ 0 always.</li>
 *   <li><b>The need.</b> The next batch is expected to be as large as the larger of the last two
 *       (a rising stream gets headroom, a single dip is not believed). needed = the smallest E in
 *       [min, max] with {@code a·records / E + b ≤ targetUtilization × D}; max when the overhead
 *       alone exceeds that budget. One fewer when that is nearer the target and predicts at most
 *       halfway between the target and D (small fleets: each executor is a large step). After a late batch, the fleet is sized to drain the backlog (the
 *       next batch's expected scheduling delay) within {@value #DRAIN_BATCHES} batches: each planned
 *       at D − backlog / {@value #DRAIN_BATCHES}, but not below {@value #DRAIN_FLOOR} × D and not above
 *       the utilization target. Once a batch starts on time again, that surplus goes in one step:
 *       it was asked for a backlog, not for the load.</li>
 *   <li><b>Up at once.</b> needed above the target → the target becomes needed, in one step.</li>
 *   <li><b>Down with hysteresis.</b> Only when needed ≤ E − max(1, ceil({@value #DOWN_BAND} × E)),
 *       the last two batches were on time and both ran after the last change with at least E
 *       executors (the fleet has settled and the measurements describe it): remove
 *       E − needed executors but at most half the fleet (ceil(E / 2)), newest first, never below
 *       needed or min. The bound limits the damage of a wrong estimate (a batch on half the fleet
 *       still shows what it needs); the band keeps rounding noise from causing changes, so steady
 *       load makes none.</li>
 *   <li><b>Warm-up.</b> Nothing is decided before {@value #WARM_UP} batches completed. It is a
 *       fixed small number, not {@code delayRounds}: the model needs points to fit, not a waiting
 *       period for a ratio to settle. A late batch after the first may already step up on the fit
 *       it has (the first batch alone is often slow for reasons that do not repeat).</li>
 * </ul>
 *
 * It decides before each batch, once per completed batch; after a late batch the next tick already
 * decides, so the up-step does not wait for the next batch's submission.
 */
public final class ModelPolicy extends FleetPolicy {

  /** Batches the fit looks at: enough to average noise, few enough to follow a changed job. */
  static final int WINDOW = 20;
  static final int WARM_UP = 3;
  /** Below this relative spread of records per executor, the intercept of a fit is not trusted. */
  static final double FLAT_SPREAD = 0.05;
  /** A batch with at most this share of the largest batch's records measures the overhead b. */
  static final double SMALL_BATCH = 0.01;
  /** A backlog is planned to drain within this many batches... */
  static final int DRAIN_BATCHES = 3;
  /** ...but no batch is planned below this share of the interval: more executors would mostly wait. */
  static final double DRAIN_FLOOR = 0.35;
  static final double DOWN_BAND = 0.1;

  /** The fitted {@code P ≈ a·x + b} (ms per record per executor, ms) and how it was found. */
  record Fit(double a, double b, String how) {}

  /** The last {@link #WINDOW} completed batches that did not fail, oldest first. */
  private final ArrayDeque<BatchStats> window = new ArrayDeque<>();
  private int completed;
  /** {@link #completed} at the last decision: one decision per completed batch. */
  private int decidedThrough;
  /** The first batch submitted after the last change: only batches from it on describe the fleet. */
  private int settledFrom;
  private long largestRecords;
  /** The smallest processing time of a nearly empty batch, or -1 before one was seen. */
  private long overheadMs = -1;
  /** The fleet was last raised to drain a backlog: it goes back to the need in one step once drained. */
  private boolean drainSurplus;

  public ModelPolicy(StreamingSettings settings) {
    super(settings);
  }

  @Override
  public String name() {
    return "model";
  }

  @Override
  public void batchCompleted(BatchStats batch, long nowMs) {
    if (batch.failed()) {
      return;
    }
    completed++;
    window.addLast(batch);
    while (window.size() > WINDOW) {
      window.removeFirst();
    }
    largestRecords = Math.max(largestRecords, batch.records());
    if (batch.records() <= SMALL_BATCH * largestRecords) {
      overheadMs = overheadMs < 0 ? batch.processingMs() : Math.min(overheadMs, batch.processingMs());
    }
  }

  @Override
  public StreamingDecision beforeBatch(int batch, long nowMs) {
    return decide(batch);
  }

  /** Acts only on a late batch not yet decided on: the backlog grows while it waits. */
  @Override
  public StreamingDecision tick(long nowMs) {
    if (completed == decidedThrough || window.isEmpty() || !window.getLast().delayed(s.batchMs())) {
      return StreamingDecision.none(target, "");
    }
    return decide(window.getLast().batch() + 1);
  }

  /** @param nextBatch the first batch a change would apply to */
  private StreamingDecision decide(int nextBatch) {
    if (completed == 0 || completed == decidedThrough) {
      return StreamingDecision.none(target, "completed=" + completed + " target=" + target);
    }
    BatchStats last = window.getLast();
    boolean late = last.delayed(s.batchMs());
    boolean warm = completed >= WARM_UP;
    if (!warm && !(late && completed >= 2)) {
      return StreamingDecision.none(target, "warm-up completed=" + completed + " target=" + target);
    }
    decidedThrough = completed;
    Fit fit = fit();
    long records = predictedRecords();
    int fitted = nearest(fit, records, needed(fit, records, s.targetUtilization() * s.batchMs()));
    long backlogMs = Math.max(0, last.schedulingDelayMs() + last.processingMs() - s.batchMs());
    double drainBudget = Math.max(DRAIN_FLOOR * s.batchMs(),
        Math.min(s.targetUtilization() * s.batchMs(), s.batchMs() - (double) backlogMs / DRAIN_BATCHES));
    int needed = late ? Math.max(fitted, needed(fit, records, drainBudget)) : fitted;
    int current = executors.current();
    String inputs = "batch=" + last.batch() + " records=" + last.records() + " executors=" + last.executors()
        + " processingMs=" + last.processingMs() + " schedulingDelayMs=" + last.schedulingDelayMs() + " late="
        + late + " a=" + num(fit.a()) + " b=" + num(fit.b()) + " fit=" + fit.how().replace(' ', '_')
        + " predictedRecords=" + records + " needed=" + needed + " current=" + current + " leaving="
        + executors.leaving() + " target=" + target;
    String why = "batch " + last.batch() + " took " + last.processingMs() + " ms for " + last.records()
        + " records on " + last.executors() + " executors" + (late ? " (late)" : "") + "; P = " + num(fit.a())
        + " ms x records/executor + " + num(fit.b()) + " ms (" + fit.how() + ") needs " + fitted
        + " executors for " + records + " records at " + num(s.targetUtilization() * 100) + "% of "
        + s.batchMs() + " ms" + (late && needed > fitted ? ", " + needed + " to drain a backlog of " + backlogMs
        + " ms within " + DRAIN_BATCHES + " batches" : "");
    int previous = target;
    if (needed > target) {
      target = needed;
      settledFrom = nextBatch;
      drainSurplus = needed > fitted;
      return new StreamingDecision(target, previous, List.of(), why + ": target " + target, inputs);
    }
    if (!warm || late) {
      return StreamingDecision.none(target, inputs);
    }
    if (drainSurplus) {
      // The surplus was asked for to drain a backlog that is now gone; keeping it would only
      // waste executors until the hysteresis below let them go, a batch or two at a time.
      drainSurplus = false;
      if (needed < current) {
        List<String> removed = executors.takeNewest(current - Math.max(needed, s.minExecutors()));
        target = clamp(current - removed.size(), s);
        settledFrom = nextBatch;
        return new StreamingDecision(target, previous, removed, why + ": the backlog is drained, remove the "
            + removed.size() + " executors asked for to drain it, target " + target, inputs);
      }
    }
    int band = (int) Math.max(1, ceil(DOWN_BAND * current));
    int remove = (int) Math.min(Math.max(1, Math.min(current - needed, ceil(current / 2.0))),
        current - Math.max(needed, s.minExecutors()));
    if (needed > current - band || remove < 1 || !settled(current)) {
      return StreamingDecision.none(target, inputs);
    }
    List<String> removed = executors.takeNewest(remove);
    target = clamp(current - removed.size(), s);
    settledFrom = nextBatch;
    return new StreamingDecision(target, previous, removed, why + ": remove " + removed.size() + " of "
        + current + " (at most half the fleet a step), target " + target, inputs);
  }

  /** The last two batches were on time, and both ran after the last change on at least this fleet. */
  private boolean settled(int current) {
    Iterator<BatchStats> newest = window.descendingIterator();
    for (int i = 0; i < 2; i++) {
      if (!newest.hasNext()) {
        return false;
      }
      BatchStats b = newest.next();
      if (b.delayed(s.batchMs()) || b.batch() < settledFrom || b.executors() < current) {
        return false;
      }
    }
    return true;
  }

  private long predictedRecords() {
    Iterator<BatchStats> newest = window.descendingIterator();
    long records = newest.next().records();
    return newest.hasNext() ? Math.max(records, newest.next().records()) : records;
  }

  /**
   * One executor fewer than {@code needed} when that fleet's predicted processing is nearer the
   * utilization target and still under the ceiling halfway between the target and the interval.
   * With a few executors each is a large share of the capacity, and the smallest fleet under the
   * target may sit far below it (2 executors at 0.83 of the interval, or 3 at 0.55): the target is
   * an aim, the ceiling the margin kept against a late batch.
   */
  private int nearest(Fit fit, long records, int needed) {
    if (needed <= s.minExecutors() || fit.a() <= 0) {
      return needed;
    }
    double aim = s.targetUtilization() * s.batchMs();
    double ceiling = (s.targetUtilization() + 1) / 2 * s.batchMs();
    double fewer = fit.a() * records / (needed - 1) + fit.b();
    double atNeeded = fit.a() * records / needed + fit.b();
    // atNeeded above the aim: needed is maxExecutors, capped, and already too few.
    return atNeeded <= aim && fewer <= ceiling && fewer - aim < aim - atNeeded ? needed - 1 : needed;
  }

  /** The smallest fleet that processes {@code records} within {@code budgetMs}. */
  private int needed(Fit fit, long records, double budgetMs) {
    double budget = budgetMs - fit.b();
    if (budget <= 0) {
      return s.maxExecutors();
    }
    if (fit.a() <= 0 || records <= 0) {
      return s.minExecutors();
    }
    double executorsNeeded = fit.a() * records / budget;
    return executorsNeeded >= s.maxExecutors() ? s.maxExecutors() : clamp(ceil(executorsNeeded), s);
  }

  Fit fit() {
    int n = window.size();
    double sumX = 0;
    double sumP = 0;
    double minX = Double.MAX_VALUE;
    double maxX = 0;
    double minP = Double.MAX_VALUE;
    for (BatchStats b : window) {
      double x = perExecutor(b);
      sumX += x;
      sumP += b.processingMs();
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minP = Math.min(minP, b.processingMs());
    }
    double meanX = sumX / n;
    double meanP = sumP / n;
    if (meanX > 0 && (maxX - minX) / meanX >= FLAT_SPREAD) {
      Fit line = leastSquares(meanX, meanP);
      if (line != null) {
        return line;
      }
    }
    double b = overheadMs >= 0 ? Math.min(overheadMs, minP) : 0;
    double a = meanX > 0 ? Math.max(0, (meanP - b) / meanX) : 0;
    return new Fit(a, b, overheadMs >= 0 ? "one load level, overhead of a near-empty batch"
        : "one load level, no overhead known");
  }

  /** The least-squares line, through the origin when its intercept is negative; null when it falls. */
  private Fit leastSquares(double meanX, double meanP) {
    double sxx = 0;
    double sxp = 0;
    double sxxOrigin = 0;
    double sxpOrigin = 0;
    for (BatchStats b : window) {
      double dx = perExecutor(b) - meanX;
      sxx += dx * dx;
      sxp += dx * (b.processingMs() - meanP);
      sxxOrigin += perExecutor(b) * perExecutor(b);
      sxpOrigin += perExecutor(b) * b.processingMs();
    }
    double a = sxp / sxx;
    if (!(a > 0)) {
      // Processing did not grow with the load in this window: noise, no model of the load.
      return null;
    }
    double b = meanP - a * meanX;
    if (b >= 0) {
      return new Fit(a, b, "least squares over " + window.size() + " batches");
    }
    return new Fit(sxpOrigin / sxxOrigin, 0, "least squares through 0 over " + window.size() + " batches");
  }

  private static double perExecutor(BatchStats b) {
    return (double) b.records() / Math.max(1, b.executors());
  }
}
