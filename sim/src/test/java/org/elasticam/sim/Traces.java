package org.elasticam.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.elasticam.workload.Trace;
import org.elasticam.workload.TraceFormatException;

/** Hand-built traces and helpers shared by the simulator's tests. */
final class Traces {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The recorded traces, from the module directory; absent on machines without them. */
  static final Path EVENTLOGS = Path.of("../../shared/eventlogs");

  private Traces() {}

  /** One stage attempt line: tasks with the given durations, no locality, all successful. */
  static String stage(int id, long submitMs, List<Integer> parents, long... durations) {
    StringBuilder tasks = new StringBuilder();
    long longest = 0;
    for (int i = 0; i < durations.length; i++) {
      tasks.append(i == 0 ? "" : ",").append("{\"task_id\":").append(id * 1000 + i).append(",\"index\":").append(i)
          .append(",\"attempt\":0,\"launch_ms\":").append(submitMs).append(",\"duration_ms\":").append(durations[i])
          .append(",\"run_ms\":").append(durations[i]).append(",\"executor\":\"1\",\"host\":\"\",\"locality\":\"ANY\",")
          .append("\"speculative\":false,\"status\":\"SUCCESS\"}");
      longest = Math.max(longest, durations[i]);
    }
    String parentList = parents.stream().map(String::valueOf).collect(Collectors.joining(","));
    return "{\"stage_id\":" + id + ",\"attempt\":0,\"job_ids\":[0],\"name\":\"stage " + id + "\",\"submit_ms\":"
        + submitMs + ",\"complete_ms\":" + (submitMs + longest) + ",\"num_tasks\":" + durations.length
        + ",\"parents\":[" + parentList + "],\"failure\":null,\"resubmitted_task_ids\":[],\"tasks\":[" + tasks + "]}";
  }

  /**
   * A synthetic job with locality: {@code stages} stages in a chain (every third one without
   * parents), {@code tasks} tasks each, durations from 50 ms to 6 s, every task node-local on one of
   * 7 recorded hosts.
   */
  static String[] localJob(int stages, int tasks) {
    String[] lines = new String[stages];
    long submit = 0;
    for (int s = 0; s < stages; s++) {
      StringBuilder t = new StringBuilder();
      long longest = 0;
      for (int i = 0; i < tasks; i++) {
        long d = 50 + (37L * (s + 1) * (i + 3)) % 5950;
        longest = Math.max(longest, d);
        t.append(i == 0 ? "" : ",").append("{\"task_id\":").append(s * 10_000 + i).append(",\"index\":").append(i)
            .append(",\"attempt\":0,\"launch_ms\":").append(submit).append(",\"duration_ms\":").append(d)
            .append(",\"run_ms\":").append(d).append(",\"executor\":\"1\",\"host\":\"rec-").append((i * 3 + s) % 7)
            .append("\",\"locality\":\"NODE_LOCAL\",\"speculative\":false,\"status\":\"SUCCESS\"}");
      }
      String parents = s % 3 == 0 || s == 0 ? "" : String.valueOf(s - 1);
      lines[s] = "{\"stage_id\":" + s + ",\"attempt\":0,\"name\":\"stage " + s + "\",\"submit_ms\":" + submit
          + ",\"complete_ms\":" + (submit + longest) + ",\"parents\":[" + parents + "],\"tasks\":[" + t + "]}";
      submit += longest + 700;
    }
    return lines;
  }

  static long[] repeat(int n, long ms) {
    long[] out = new long[n];
    java.util.Arrays.fill(out, ms);
    return out;
  }

  static Path write(Path dir, String name, String... lines) {
    try {
      Path f = dir.resolve(name + ".trace.jsonl");
      Files.writeString(f, String.join("\n", lines) + "\n");
      return f;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Trace read(Path file) {
    try {
      return Trace.read(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (TraceFormatException e) {
      throw new IllegalStateException(e);
    }
  }

  static SimConfig config() {
    return SimConfig.of(Map.of(), SimParams.defaults());
  }

  /** A run with its event log kept, parsed line by line. */
  record Logged(SimResult result, List<String> lines, List<JsonNode> events) {

    List<JsonNode> named(String event) {
      return events.stream().filter(e -> e.get("event").asText().equals(event)).toList();
    }

    /** Simulated ms of an event: its ts minus the fixed epoch base. */
    static long at(JsonNode e) {
      return e.get("ts").asLong() - EventLogSink.EPOCH_BASE_MS;
    }
  }

  static Logged run(Path traceFile, String policy, SimConfig config) {
    StringWriter log = new StringWriter();
    SimResult r = PolicyRun.run(read(traceFile), SimulateMain.traceName(traceFile), policy, config, log);
    List<JsonNode> events = new ArrayList<>();
    List<String> lines = List.of(log.toString().split("\n"));
    for (String line : lines) {
      try {
        events.add(JSON.readTree(line));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return new Logged(r, lines, events);
  }

  /** The bundled copies of three small recorded traces, for checkouts without ../shared. */
  static final Path BUNDLED = Path.of("src/test/resources/traces");

  /**
   * Whether missing shared traces are an error rather than a skip: CI sets
   * {@code ELASTICAM_SHARED_TRACES=required}, its clone sitting beside {@code shared/}.
   */
  static boolean sharedRequired() {
    return "required".equals(System.getenv("ELASTICAM_SHARED_TRACES"));
  }

  /** The shared traces when ../shared/eventlogs is there, else the bundled copies (a test says so). */
  static List<Path> recorded() {
    return list(Files.isDirectory(EVENTLOGS) ? EVENTLOGS : BUNDLED);
  }

  static List<Path> list(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".trace.jsonl")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
