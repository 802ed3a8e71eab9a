package org.elasticam.sim.streaming;

import static org.elasticam.report.events.EventFields.BATCH;
import static org.elasticam.report.events.EventFields.DURATION_MS;
import static org.elasticam.report.events.EventFields.EVENT;
import static org.elasticam.report.events.EventFields.EXECUTORS;
import static org.elasticam.report.events.EventFields.EXECUTOR_SECONDS;
import static org.elasticam.report.events.EventFields.POLICY;
import static org.elasticam.report.events.EventFields.PROCESSING_MS;
import static org.elasticam.report.events.EventFields.RECORDS;
import static org.elasticam.report.events.EventFields.SCHEDULING_DELAY_MS;
import static org.elasticam.report.events.EventFields.TS;

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
import org.elasticam.report.events.Event;

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
        long ts = e.path(TS).asLong();
        firstTs = Math.min(firstTs, ts);
        lastTs = Math.max(lastTs, ts);
        Event event = Event.byName(e.path(EVENT).asText());
        if (event == null) {
          continue; // written by a newer release: not what this reads
        }
        switch (event) {
          case BATCH_COMPLETED -> batches.add(e);
          case TARGET_CHANGED -> {
            if (policy == null) {
              policy = e.path(POLICY).asText(null);
            } else {
              targetChanges++;
            }
          }
          case EXECUTOR_LAUNCHED -> launched++;
          case APP_END -> executorSeconds = e.path(EXECUTOR_SECONDS).asDouble(-1);
          default -> { }
        }
      }
    } catch (IOException e) {
      throw new StreamingArgs.UsageException("cannot read " + file + ": " + e.getMessage());
    }
    if (batches.isEmpty()) {
      throw new StreamingArgs.UsageException(file + " has no batch_completed events: not a streaming run");
    }
    long batchMs = batches.get(0).path(DURATION_MS).asLong();
    if (batchMs <= 0) {
      throw new StreamingArgs.UsageException(file + ": batch_completed without a positive duration_ms");
    }
    JsonNode first = batches.get(0);
    long firstDue = first.path(TS).asLong() - first.path(PROCESSING_MS).asLong()
        - first.path(SCHEDULING_DELAY_MS).asLong();
    long streamStart = firstDue - (first.path(BATCH).asLong() + 1) * batchMs;
    List<BatchStats> stats = new ArrayList<>();
    int peak = 0;
    for (JsonNode b : batches) {
      long completed = b.path(TS).asLong() - streamStart;
      long submitted = completed - b.path(PROCESSING_MS).asLong();
      long due = submitted - b.path(SCHEDULING_DELAY_MS).asLong();
      int executors = b.path(EXECUTORS).asInt();
      peak = Math.max(peak, executors);
      try {
        stats.add(new BatchStats(b.path(BATCH).asInt(), due, submitted, completed, b.path(RECORDS).asLong(),
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
