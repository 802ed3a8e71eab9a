package org.elasticam.sim.streaming;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.elasticam.allocator.streaming.BatchStats;

/**
 * A real streaming run, read back from the ApplicationMaster's event log, in the simulator's terms:
 * so that {@code simulate --streaming --eventlog F} reports a run on a cluster with the very figures
 * (and definitions) it reports for a simulated one. Times are made relative to the stream's start,
 * which is one interval before batch 0 was due, as the rate profile's are.
 */
final class EventLogRun {

  private static final ObjectMapper JSON = JsonMapper.builder().build();
  /** An event log line longer than this is not one the AM wrote. */
  private static final int MAX_LINE = 1 << 20;

  private EventLogRun() {}

  /** The run and its batch interval. */
  record Read(StreamingResult result, long batchMs) {}

  /** @throws StreamingArgs.UsageException when the file cannot be read or holds no streaming run */
  static Read read(Path file) throws StreamingArgs.UsageException {
    List<JsonNode> batches = new ArrayList<>();
    String policy = null;
    int targetChanges = 0;
    int launched = 0;
    double executorSeconds = -1;
    long firstTs = Long.MAX_VALUE;
    long lastTs = 0;
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      int n = 0;
      while ((line = in.readLine()) != null) {
        n++;
        if (line.isBlank()) {
          continue;
        }
        if (line.length() > MAX_LINE) {
          throw new StreamingArgs.UsageException(file + " line " + n + " is longer than " + MAX_LINE
              + " characters: not an ElasticAM event log");
        }
        JsonNode e;
        try {
          e = JSON.readTree(line);
        } catch (IOException ex) {
          throw new StreamingArgs.UsageException(file + " line " + n + " is not JSON: not an ElasticAM event log");
        }
        long ts = e.path("ts").asLong();
        firstTs = Math.min(firstTs, ts);
        lastTs = Math.max(lastTs, ts);
        switch (e.path("event").asText()) {
          case "batch_completed" -> batches.add(e);
          case "target_changed" -> {
            if (policy == null) {
              policy = e.path("policy").asText(null);
            } else {
              targetChanges++;
            }
          }
          case "executor_launched" -> launched++;
          case "app_end" -> executorSeconds = e.path("executor_seconds").asDouble(-1);
          default -> { }
        }
      }
    } catch (IOException e) {
      throw new StreamingArgs.UsageException("cannot read " + file + ": " + e.getMessage());
    }
    if (batches.isEmpty()) {
      throw new StreamingArgs.UsageException(file + " has no batch_completed events: not a streaming run");
    }
    long batchMs = batches.get(0).path("duration_ms").asLong();
    if (batchMs <= 0) {
      throw new StreamingArgs.UsageException(file + ": batch_completed without a positive duration_ms");
    }
    JsonNode first = batches.get(0);
    long firstDue = first.path("ts").asLong() - first.path("processing_ms").asLong()
        - first.path("scheduling_delay_ms").asLong();
    long streamStart = firstDue - (first.path("batch").asLong() + 1) * batchMs;
    List<BatchStats> stats = new ArrayList<>();
    int peak = 0;
    for (JsonNode b : batches) {
      long completed = b.path("ts").asLong() - streamStart;
      long submitted = completed - b.path("processing_ms").asLong();
      long due = submitted - b.path("scheduling_delay_ms").asLong();
      int executors = b.path("executors").asInt();
      peak = Math.max(peak, executors);
      try {
        stats.add(new BatchStats(b.path("batch").asInt(), due, submitted, completed, b.path("records").asLong(),
            executors, false));
      } catch (IllegalArgumentException ex) {
        throw new StreamingArgs.UsageException(file + ": " + ex.getMessage());
      }
    }
    long endMs = stats.get(stats.size() - 1).completedAtMs();
    long executorMs = executorSeconds >= 0 ? Math.round(executorSeconds * 1000)
        : Math.round(StreamingMetrics.approximateExecutorSeconds(stats) * 1000);
    return new Read(new StreamingResult(policy == null ? "unknown" : policy, stats, endMs, executorMs, peak,
        launched, 0, targetChanges), batchMs);
  }
}
