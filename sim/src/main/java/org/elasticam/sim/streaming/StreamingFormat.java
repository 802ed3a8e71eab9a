package org.elasticam.sim.streaming;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.elasticam.sim.TextTable;

/** The figures of streaming runs as a table for people, or as one JSON object per line for tools. */
final class StreamingFormat {

  private static final ObjectMapper JSON = JsonMapper.builder().build();

  private StreamingFormat() {}

  /** One policy's run and its figures, as printed. */
  record Row(StreamingResult run, StreamingMetrics metrics) {}

  /** The figures under their {@code --json} names, in a fixed order. */
  static Map<String, Object> fields(Row r, String rate, long batchMs) {
    StreamingMetrics m = r.metrics();
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("policy", r.run().policy());
    f.put("rate", rate);
    f.put("batch_ms", batchMs);
    f.put("batches", m.batches());
    f.put("late_batches", m.lateBatches());
    f.put("settle_batches", m.settleBatches());
    f.put("changes_last20", m.changesInTail());
    f.put("executor_seconds", BigDecimal.valueOf(r.run().executorMs(), 3));
    f.put("mean_processing_ratio", BigDecimal.valueOf(m.meanProcessingRatio()).setScale(3, RoundingMode.HALF_UP));
    // What a late batch costs the stream: the wait of the batches after it (first batches left out,
    // as for late batches: executors are still starting).
    f.put("mean_delay_ms", Math.round(r.run().batches().stream().filter(b -> b.batch() >= StreamingMetrics.WARM_UP)
        .mapToLong(b -> b.schedulingDelayMs()).average().orElse(0)));
    f.put("peak_executors", r.run().peakExecutors());
    f.put("target_changes", r.run().targetChanges());
    f.put("asks", r.run().asks());
    f.put("asks_withdrawn", r.run().asksWithdrawn());
    return f;
  }

  static String json(Row r, String rate, long batchMs) {
    try {
      return JSON.writeValueAsString(fields(r, rate, batchMs));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode the figures of " + r.run().policy(), e);
    }
  }

  /**
   * A left-aligned table: a line naming the run, a header with the JSON names (bar rate and
   * batch_ms), one row per policy; lists print as comma-separated values, "-" when empty.
   */
  static String table(String rate, long batchMs, List<Row> rows) {
    List<Map<String, Object>> records = rows.stream().map(r -> fields(r, rate, batchMs)).toList();
    return "rate " + rate + ", batch " + batchMs + " ms\n"
        + TextTable.of(records, List.of("rate", "batch_ms"), StreamingFormat::cell);
  }

  private static String cell(Object value) {
    if (value instanceof List<?> list) {
      return list.isEmpty() ? "-" : list.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
    return String.valueOf(value);
  }
}
