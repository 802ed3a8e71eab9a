package org.elasticam.allocator.streaming;

import static org.elasticam.allocator.streaming.StreamingPolicies.ceil;
import static org.elasticam.allocator.streaming.StreamingPolicies.clamp;
import static org.elasticam.allocator.streaming.StreamingPolicies.num;
import static org.elasticam.allocator.streaming.StreamingPolicies.round;

import java.util.ArrayDeque;
import java.util.List;

/**
 * The design we follow: greedy up, gradual down, decided just before each batch from the batches
 * that completed before it. Failed batches are ignored.
 *
 * <ul>
 *   <li><b>Wait.</b> Nothing is decided until {@code delayRounds} batches have completed: the first
 *       batches of a job (class loading, JIT, connections) say little about its steady cost.</li>
 *   <li><b>Up, all at once.</b> When the last completed batch was late (processing longer than the
 *       interval D, or it could not start on time) the target becomes {@code maxExecutors} and
 *       nothing is removed: a backlog grows every interval it lasts, so probing upwards step by step
 *       costs more than over-asking for a while. The target stays there until a round finds spare
 *       capacity; in a shared cluster that grants fewer, the ask stays outstanding meanwhile.</li>
 *   <li><b>Down, in rounds.</b> Otherwise, with P the mean processing time of the last
 *       {@code rememberBatchSize} batches and E the current executors (registered and not already
 *       chosen for removal): {@code totalRemove = round(E × ((D − P) / D − reserveRate))}, rounding
 *       halves up. When it is at least 1, this round removes {@code max(1, floor(totalRemove /
 *       releaseRounds))} executors, newest first, keeping at least {@code max(minExecutors,
 *       ceil(reserveRate × E))}, and the target becomes E minus them, so the allocator does not
 *       replace them (and any ask still outstanding is withdrawn: the last batch was on time).
 *       Worked example: E = 20, D = 10 s, P = 4 s, reserveRate 0.2 → 20 × (0.6 − 0.2) = 8 to spare;
 *       releaseRounds 5 → 8 / 5 = 1.6, floored → 1 removed, target 19. The floor makes the release
 *       slow on purpose; the {@code max(1, …)} makes it finish: a spare of 3 over 5 rounds still
 *       releases one a round.</li>
 *   <li><b>Every round from fresh numbers.</b> totalRemove is recomputed each round from the
 *       executors left and the latest processing time, not counted down from the first estimate, so
 *       the release converges: as executors go, processing per batch rises and the spare falls to 0.
 *       A round decides once per completed batch; a second call before the next batch completes
 *       changes nothing, so it never releases the same spare twice.</li>
 * </ul>
 *
 * When the last batch was on time and nothing is to spare, the target stays as it is.
 */
public final class RoundsPolicy extends FleetPolicy {

  /** The last {@code rememberBatchSize} completed batches that did not fail, oldest first. */
  private final ArrayDeque<BatchStats> recent = new ArrayDeque<>();
  private int completed;
  /** {@link #completed} when the last round decided: a round acts once per completed batch. */
  private int decidedThrough;

  public RoundsPolicy(StreamingSettings settings) {
    super(settings);
  }

  @Override
  public String name() {
    return "rounds";
  }

  @Override
  public void batchCompleted(BatchStats batch, long nowMs) {
    if (batch.failed()) {
      return;
    }
    completed++;
    recent.addLast(batch);
    while (recent.size() > s.rememberBatchSize()) {
      recent.removeFirst();
    }
  }

  @Override
  public StreamingDecision beforeBatch(int batch, long nowMs) {
    if (completed < s.delayRounds() || completed == 0 || completed == decidedThrough) {
      return StreamingDecision.none(target, "completed=" + completed + " delayRounds=" + s.delayRounds()
          + " current=" + executors.current() + " target=" + target);
    }
    decidedThrough = completed;
    BatchStats last = recent.getLast();
    return last.delayed(s.batchMs()) ? askForMax(last) : release(last);
  }

  @Override
  public StreamingDecision tick(long nowMs) {
    return StreamingDecision.none(target, "");
  }

  private StreamingDecision askForMax(BatchStats last) {
    String inputs = "batch=" + last.batch() + " processingMs=" + last.processingMs() + " schedulingDelayMs="
        + last.schedulingDelayMs() + " batchMs=" + s.batchMs() + " current=" + executors.current()
        + " target=" + target;
    if (target == s.maxExecutors()) {
      return StreamingDecision.none(target, inputs);
    }
    String late = last.processingMs() > s.batchMs()
        ? "processing " + last.processingMs() + " ms > interval " + s.batchMs() + " ms"
        : "it waited " + last.schedulingDelayMs() + " ms for the batch before it";
    int previous = target;
    target = s.maxExecutors();
    return new StreamingDecision(target, previous, List.of(),
        "batch " + last.batch() + " was late (" + late + "): ask for maxExecutors " + target, inputs);
  }

  private StreamingDecision release(BatchStats last) {
    int current = executors.current();
    double processing = recent.stream().mapToLong(BatchStats::processingMs).average().orElse(0);
    double d = s.batchMs();
    long totalRemove = round(current * ((d - processing) / d - s.reserveRate()));
    int floor = (int) Math.max(s.minExecutors(), ceil(s.reserveRate() * current));
    long thisRound = Math.min(Math.max(1, totalRemove / s.releaseRounds()), current - floor);
    String inputs = "batch=" + last.batch() + " meanProcessingMs=" + num(processing) + " batches="
        + recent.size() + " batchMs=" + s.batchMs() + " current=" + executors.current() + " leaving="
        + executors.leaving() + " target=" + target + " reserveRate=" + num(s.reserveRate())
        + " totalRemove=" + totalRemove + " releaseRounds=" + s.releaseRounds() + " floor=" + floor;
    if (totalRemove < 1 || thisRound < 1) {
      return StreamingDecision.none(target, inputs);
    }
    List<String> remove = executors.takeNewest((int) thisRound);
    int previous = target;
    target = clamp(current - remove.size(), s);
    String reason = "batches averaged " + num(processing) + " ms of a " + s.batchMs() + " ms interval on "
        + current + " executors: " + totalRemove + " to spare beyond the " + num(s.reserveRate() * 100)
        + "% reserve, releasing " + remove.size() + " this round (of " + s.releaseRounds()
        + " rounds, keeping at least " + floor + "): target " + target;
    return new StreamingDecision(target, previous, remove, reason, inputs);
  }
}
