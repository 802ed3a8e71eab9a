package org.elasticam.report.events;

/**
 * The event log's field names (DESIGN §3), each written once here and used by every writer (the
 * AM, the simulator) and every reader ({@code RunHistory}, the client's summary, the streaming
 * comparison, the benchmarks). {@link Event} says which fields each event carries.
 */
public final class EventFields {

  private EventFields() {}

  // Every line.
  public static final String TS = "ts";
  public static final String EVENT = "event";

  // The application and the AM.
  public static final String APP_ID = "app_id";
  public static final String ATTEMPT = "attempt";
  public static final String CONF = "conf";
  public static final String JOB = "job";
  public static final String JAVA_VERSION = "java_version";
  public static final String JAVA_HOME = "java_home";
  public static final String FINAL_STATUS = "final_status";
  public static final String DIAGNOSTICS = "diagnostics";
  public static final String EXECUTOR_SECONDS = "executor_seconds";
  public static final String AM_HEAP_MB = "am_heap_mb";
  public static final String RPC_PORT = "rpc_port";
  public static final String TRACKING_URL = "tracking_url";
  public static final String PID = "pid";
  public static final String JOURNAL_FOUND = "journal_found";
  public static final String STAGES_RECOVERED = "stages_recovered";
  public static final String TASKS_DONE_IN_RUNNING_STAGES = "tasks_done_in_running_stages";
  public static final String BATCHES_DONE = "batches_done";
  public static final String CONTAINERS_KEPT = "containers_kept";
  public static final String EXECUTORS_ADOPTED = "executors_adopted";
  public static final String ALLOCATE_MS = "allocate_ms";
  public static final String TOKENS = "tokens";
  public static final String MESSAGE = "message";
  public static final String REASON = "reason";

  // The target and the requests.
  public static final String TARGET = "target";
  public static final String PREVIOUS = "previous";
  public static final String PENDING_TASKS = "pending_tasks";
  public static final String RUNNING_TASKS = "running_tasks";
  public static final String POLICY = "policy";
  public static final String COUNT = "count";
  public static final String NODES = "nodes";
  public static final String RACKS = "racks";

  // Containers, executors, nodes.
  public static final String CONTAINER_ID = "container_id";
  public static final String EXECUTOR_ID = "executor_id";
  public static final String HOST = "host";
  public static final String MATCHED = "matched";
  public static final String CORES = "cores";
  public static final String REATTACHED = "reattached";
  public static final String START = "start";
  public static final String SHUFFLE_OUTPUT = "shuffle_output";
  public static final String EXIT_STATUS = "exit_status";
  public static final String EXIT_STATUS_NAME = "exit_status_name";
  public static final String COUNTED_AS_FAILURE = "counted_as_failure";
  public static final String UNTIL_TS = "until_ts";
  public static final String FAILURES = "failures";
  public static final String STATE = "state";
  public static final String TIMEOUT_S = "timeout_s";
  public static final String EXECUTORS = "executors";
  public static final String MORE = "more";

  // Stages and tasks.
  public static final String STAGE_ID = "stage_id";
  public static final String NAME = "name";
  public static final String TASKS = "tasks";
  public static final String FAILED = "failed";
  public static final String RECOVERED = "recovered";
  public static final String RECOMPUTED = "recomputed";
  public static final String WAITING_STAGE = "waiting_stage";
  public static final String RECOMPUTED_STAGE = "recomputed_stage";
  public static final String TASK = "task";
  public static final String LOCALITY = "locality";
  public static final String SPECULATIVE = "speculative";
  public static final String DURATION_MS = "duration_ms";
  public static final String STATUS = "status";
  public static final String FETCH_FAILED = "fetch_failed";
  public static final String SUPERSEDED = "superseded";
  public static final String WON_OVER_ATTEMPTS = "won_over_attempts";
  public static final String ERROR = "error";
  public static final String RUN_MS = "run_ms";
  public static final String THRESHOLD_MS = "threshold_ms";
  public static final String SHUFFLE_ID = "shuffle_id";
  public static final String FROM_EXECUTOR = "from_executor";
  public static final String MAPS = "maps";
  public static final String SERVERS = "servers";
  /** An object of counter name → value: an attempt's ({@code task_end}) or a stage's sums ({@code stage_completed}). */
  public static final String COUNTERS = "counters";

  // Streaming batches.
  public static final String BATCH = "batch";
  public static final String RECORDS = "records";
  public static final String STAGES = "stages";
  public static final String PROCESSING_MS = "processing_ms";
  public static final String SCHEDULING_DELAY_MS = "scheduling_delay_ms";
  public static final String FAILED_IN_A_ROW = "failed_in_a_row";
}
