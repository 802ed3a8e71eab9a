package org.elasticam.report.events;

import static org.elasticam.report.events.EventFields.*;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The events of the event log (DESIGN §3) and the fields each may carry beside {@code ts} and
 * {@code event}: the one schema the AM and the simulator write and every reader reads. A writer
 * naming a field its event does not declare fails {@link #checkFields} (with assertions on, as in
 * every test); a reader meets events it does not know as {@link #byName} returning null.
 */
public enum Event {
  APP_START("app_start", APP_ID, ATTEMPT, CONF, JOB, JAVA_VERSION, JAVA_HOME),
  APP_END("app_end", FINAL_STATUS, DIAGNOSTICS, EXECUTOR_SECONDS, AM_HEAP_MB),
  AM_REGISTERED("am_registered", HOST, PID, RPC_PORT, TRACKING_URL, START),
  AM_RECOVERED("am_recovered", ATTEMPT, JOURNAL_FOUND, STAGES_RECOVERED, TASKS_DONE_IN_RUNNING_STAGES, BATCHES_DONE,
      CONTAINERS_KEPT, EXECUTORS_ADOPTED),
  RM_RESYNCED("rm_resynced", ALLOCATE_MS),
  TOKENS_RENEWED("tokens_renewed", TOKENS),
  ALLOCATOR_WARNING("allocator_warning", MESSAGE),

  TARGET_CHANGED("target_changed", TARGET, PREVIOUS, REASON, PENDING_TASKS, RUNNING_TASKS, POLICY),
  CONTAINERS_REQUESTED("containers_requested", COUNT, NODES, RACKS),
  REQUESTS_CANCELLED("requests_cancelled", COUNT, REASON),
  CONTAINER_ALLOCATED("container_allocated", CONTAINER_ID, HOST, MATCHED),
  CONTAINER_RELEASED("container_released", CONTAINER_ID, REASON),
  EXECUTOR_LAUNCHED("executor_launched", EXECUTOR_ID, CONTAINER_ID, HOST),
  EXECUTOR_REGISTERED("executor_registered", EXECUTOR_ID, CONTAINER_ID, HOST, CORES, PID, REATTACHED, JAVA_VERSION,
      JAVA_HOME, START),
  EXECUTOR_IDLE("executor_idle", EXECUTOR_ID, SHUFFLE_OUTPUT),
  EXECUTOR_REMOVED("executor_removed", EXECUTOR_ID, CONTAINER_ID, HOST, REASON, EXIT_STATUS, EXIT_STATUS_NAME,
      COUNTED_AS_FAILURE, MESSAGE),
  PREEMPTION_REQUESTED("preemption_requested", EXECUTORS, MORE),
  NODE_EXCLUDED("node_excluded", HOST, UNTIL_TS, REASON, FAILURES),
  NODE_LOST("node_lost", HOST, STATE),
  NODE_DECOMMISSIONING("node_decommissioning", HOST, TIMEOUT_S),
  NODE_RECOMMISSIONED("node_recommissioned", HOST),

  STAGE_SUBMITTED("stage_submitted", STAGE_ID, NAME, TASKS),
  STAGE_COMPLETED("stage_completed", STAGE_ID, TASKS, FAILED, RECOVERED, RECOMPUTED, COUNTERS),
  STAGE_RESUBMITTED("stage_resubmitted", STAGE_ID, TASKS, REASON, WAITING_STAGE),
  STAGE_RESUMED("stage_resumed", STAGE_ID, RECOMPUTED_STAGE),
  TASK_START("task_start", STAGE_ID, TASK, ATTEMPT, EXECUTOR_ID, HOST, LOCALITY, SPECULATIVE),
  TASK_END("task_end", STAGE_ID, TASK, ATTEMPT, EXECUTOR_ID, HOST, LOCALITY, DURATION_MS, STATUS, FETCH_FAILED,
      SPECULATIVE, SUPERSEDED, WON_OVER_ATTEMPTS, ERROR, COUNTERS),
  TASK_SPECULATED("task_speculated", STAGE_ID, TASK, ATTEMPT, EXECUTOR_ID, RUN_MS, THRESHOLD_MS),
  FETCH_FAILURE("fetch_failed", STAGE_ID, TASK, ATTEMPT, SHUFFLE_ID, FROM_EXECUTOR, MAPS, MESSAGE),
  SHUFFLE_REMOVED("shuffle_removed", SHUFFLE_ID, REASON, SERVERS),

  BATCH_SUBMITTED("batch_submitted", BATCH, RECORDS, STAGES, SCHEDULING_DELAY_MS, EXECUTORS),
  BATCH_COMPLETED("batch_completed", BATCH, PROCESSING_MS, SCHEDULING_DELAY_MS, DURATION_MS, RECORDS, EXECUTORS),
  BATCH_FAILED("batch_failed", BATCH, REASON, RECORDS, PROCESSING_MS, FAILED_IN_A_ROW);

  private static final Map<String, Event> BY_NAME = new HashMap<>();

  static {
    for (Event e : values()) {
      BY_NAME.put(e.wireName, e);
    }
  }

  private final String wireName;
  private final Set<String> fields;

  Event(String wireName, String... fields) {
    this.wireName = wireName;
    this.fields = Set.copyOf(Arrays.asList(fields));
  }

  /** The event's name as lines carry it in {@code event}. */
  public String wireName() {
    return wireName;
  }

  /** The fields this event may carry, beside {@code ts} and {@code event}. */
  public Set<String> fields() {
    return fields;
  }

  /** The event named {@code name} in a line, or null for one this schema does not know. */
  public static Event byName(String name) {
    return BY_NAME.get(name);
  }

  /**
   * Whether {@code kv} (field names alternating with values, as writers pass them) names only this
   * event's fields; writers assert it, so a field missing from the schema fails the tests.
   */
  public boolean checkFields(Object... kv) {
    for (int i = 0; i < kv.length; i += 2) {
      if (!(kv[i] instanceof String name) || !fields.contains(name)) {
        throw new IllegalArgumentException(wireName + " has no field " + kv[i] + " (report.events.Event)");
      }
    }
    return true;
  }

  /**
   * One line of the log as writers serialize it: {@code ts}, {@code event}, then the fields in the
   * order given. {@code kv} alternates field names and values.
   */
  public Map<String, Object> line(long ts, Object... kv) {
    assert checkFields(kv);
    Map<String, Object> m = new java.util.LinkedHashMap<>();
    m.put(TS, ts);
    m.put(EVENT, wireName);
    for (int i = 0; i + 1 < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  /** The fields of a line that its event does not declare, for checks over whole logs. */
  public List<String> undeclared(Iterable<String> lineFields) {
    List<String> out = new java.util.ArrayList<>();
    for (String f : lineFields) {
      if (!f.equals(TS) && !f.equals(EVENT) && !fields.contains(f)) {
        out.add(f);
      }
    }
    return out;
  }

  @Override
  public String toString() {
    return wireName;
  }
}
