package org.elasticam.engine.events;

import static org.elasticam.report.events.EventFields.ATTEMPT;
import static org.elasticam.report.events.EventFields.CONTAINER_ID;
import static org.elasticam.report.events.EventFields.CORES;
import static org.elasticam.report.events.EventFields.DURATION_MS;
import static org.elasticam.report.events.EventFields.EXECUTOR_ID;
import static org.elasticam.report.events.EventFields.FETCH_FAILED;
import static org.elasticam.report.events.EventFields.HOST;
import static org.elasticam.report.events.EventFields.LOCALITY;
import static org.elasticam.report.events.EventFields.NAME;
import static org.elasticam.report.events.EventFields.SPECULATIVE;
import static org.elasticam.report.events.EventFields.STAGE_ID;
import static org.elasticam.report.events.EventFields.STATUS;
import static org.elasticam.report.events.EventFields.TASK;
import static org.elasticam.report.events.EventFields.TASKS;

import java.util.ArrayList;
import java.util.List;
import org.elasticam.api.Stage;
import org.elasticam.engine.scheduling.TaskAttempt;
import org.elasticam.report.events.Event;
import org.elasticam.report.events.EventWriter;

/**
 * The job's events as the AM and the simulator both write them: one place for each event's fields,
 * so a real run's log and a simulated run's log say the same things the same way.
 */
public final class JobEvents {

  /** How an attempt ended, as {@code task_end}'s {@code status} says it. */
  public enum Status { SUCCESS, FAILED, KILLED }

  private final EventWriter out;

  public JobEvents(EventWriter out) {
    this.out = out;
  }

  public EventWriter writer() {
    return out;
  }

  public void stageSubmitted(Stage s) {
    out.write(Event.STAGE_SUBMITTED, STAGE_ID, s.id(), NAME, s.name(), TASKS, s.tasks().size());
  }

  /** {@code more}: further fields of {@code stage_completed} (recovered, recomputed), names and values. */
  public void stageCompleted(int stageId, int tasks, Object... more) {
    List<Object> kv = new ArrayList<>(List.of(STAGE_ID, stageId, TASKS, tasks));
    kv.addAll(List.of(more));
    out.write(Event.STAGE_COMPLETED, kv.toArray());
  }

  /**
   * {@code more}: what a real executor tells beyond its place and size (pid, Java, start-up steps).
   * A field it did not tell (null) is left out: a simulated executor tells none.
   */
  public void executorRegistered(String executorId, String containerId, String host, int cores, Object... more) {
    List<Object> kv = new ArrayList<>(List.of(EXECUTOR_ID, executorId, CONTAINER_ID, containerId, HOST, host,
        CORES, cores));
    for (int i = 0; i + 1 < more.length; i += 2) {
      Object value = more[i + 1];
      if (value != null) {
        kv.add(more[i]);
        kv.add(value);
      }
    }
    out.write(Event.EXECUTOR_REGISTERED, kv.toArray());
  }

  public void taskStarted(TaskAttempt a) {
    out.write(Event.TASK_START, STAGE_ID, a.stageId(), TASK, a.index(), ATTEMPT, a.attempt(), EXECUTOR_ID,
        a.executorId(), HOST, a.host(), LOCALITY, a.locality().name(), SPECULATIVE, a.speculative());
  }

  /**
   * An attempt ended after {@code durationMs}. {@code more}: what else its end says (won over
   * which attempts, its error, superseded), names and values.
   */
  public void taskEnded(TaskAttempt a, long durationMs, Status status, boolean fetchFailed, Object... more) {
    List<Object> kv = new ArrayList<>(List.of(STAGE_ID, a.stageId(), TASK, a.index(), ATTEMPT, a.attempt(),
        EXECUTOR_ID, a.executorId(), HOST, a.host(), LOCALITY, a.locality().name(), DURATION_MS, durationMs,
        STATUS, status.name(), FETCH_FAILED, fetchFailed, SPECULATIVE, a.speculative()));
    kv.addAll(List.of(more));
    out.write(Event.TASK_END, kv.toArray());
  }
}
