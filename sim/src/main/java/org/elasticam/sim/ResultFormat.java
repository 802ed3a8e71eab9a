package org.elasticam.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The figures as a table for people, or as one JSON object per line for tools. */
final class ResultFormat {

  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN).build();

  private ResultFormat() {}

  /** The figures under their {@code --json} names, in a fixed order. */
  static Map<String, Object> fields(SimResult r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("policy", r.policy());
    m.put("trace", r.trace());
    m.put("makespan_ms", r.makespanMs());
    m.put("executor_seconds", r.executorSeconds());
    m.put("idle_executor_seconds", r.idleExecutorSeconds());
    m.put("time_to_full_parallelism_ms", r.timeToFullParallelismMs());
    m.put("peak_executors", r.peakExecutors());
    m.put("requests_added", r.requestsAdded());
    m.put("requests_cancelled", r.requestsCancelled());
    m.put("executors_killed", r.executorsKilled());
    return m;
  }

  static String json(SimResult r) {
    try {
      return JSON.writeValueAsString(fields(r));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode the figures of " + r.policy(), e);
    }
  }

  /** A left-aligned table: a header row with the JSON names (bar the trace), one row per policy. */
  static String table(String trace, List<SimResult> results) {
    return "trace " + trace + "\n"
        + TextTable.of(results.stream().map(ResultFormat::fields).toList(), List.of("trace"), String::valueOf);
  }
}
