package org.elasticam.am.client;

import static org.elasticam.report.events.EventFields.COUNTERS;
import static org.elasticam.report.events.EventFields.EVENT;
import static org.elasticam.report.events.EventFields.EXECUTOR_ID;
import static org.elasticam.report.events.EventFields.EXECUTOR_SECONDS;
import static org.elasticam.report.events.EventFields.STAGE_ID;
import static org.elasticam.report.events.EventFields.STATUS;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.elasticam.am.events.EventLog;
import org.elasticam.conf.ElasticConf;
import org.elasticam.report.events.Event;

/**
 * A finished run's figures, read back from its event log.
 *
 * @param counters each counter's sum over the job's stages, a stage counted as its last completion
 *     reported it (a stage that ran again after lost output reports its whole figures again)
 */
public record RunSummary(Path eventLog, int tasksSucceeded, int taskAttempts, int executorsUsed,
    double executorSeconds, boolean complete, SortedMap<String, Long> counters) {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Where the AM writes the application's event log ({@link EventLog#dir}). */
  public static Path eventLogPath(Configuration conf, ElasticConf elastic, String appId) throws IOException {
    return new Path(EventLog.dir(conf, elastic), appId + ".jsonl");
  }

  public static RunSummary read(Configuration conf, Path file) throws IOException {
    FileSystem fs = file.getFileSystem(conf);
    if (fs instanceof LocalFileSystem local) {
      fs = local.getRawFileSystem();
    }
    int ok = 0;
    int attempts = 0;
    Set<String> executors = new HashSet<>();
    double seconds = 0;
    boolean complete = false;
    Map<Integer, JsonNode> lastCompletion = new HashMap<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(file), StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        JsonNode n = JSON.readTree(line);
        Event event = Event.byName(n.path(EVENT).asText());
        if (event == null) {
          continue; // written by a newer release: not what this reads
        }
        switch (event) {
          case TASK_END -> {
            attempts++;
            ok += "SUCCESS".equals(n.path(STATUS).asText()) ? 1 : 0;
          }
          case EXECUTOR_REGISTERED -> executors.add(n.path(EXECUTOR_ID).asText());
          case STAGE_COMPLETED -> lastCompletion.put(n.path(STAGE_ID).asInt(), n.path(COUNTERS));
          case APP_END -> {
            seconds = n.path(EXECUTOR_SECONDS).asDouble();
            complete = true;
          }
          default -> { }
        }
      }
    }
    SortedMap<String, Long> counters = new TreeMap<>();
    for (JsonNode stage : lastCompletion.values()) {
      stage.fields().forEachRemaining(c -> counters.merge(c.getKey(), c.getValue().asLong(), Long::sum));
    }
    return new RunSummary(file, ok, attempts, executors.size(), seconds, complete, counters);
  }
}
