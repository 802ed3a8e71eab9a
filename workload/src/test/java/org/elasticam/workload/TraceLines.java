package org.elasticam.workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** Hand-written trace lines for tests, in the generator's field order. */
final class TraceLines {

  private TraceLines() {}

  static String stage(int stageId, int attempt, long submitMs, long completeMs,
      List<Integer> parents, String... tasks) {
    return "{\"stage_id\":" + stageId + ",\"attempt\":" + attempt + ",\"job_ids\":[0],"
        + "\"name\":\"stage " + stageId + "\",\"submit_ms\":" + submitMs
        + ",\"complete_ms\":" + completeMs + ",\"num_tasks\":" + tasks.length
        + ",\"parents\":" + parents.stream().map(String::valueOf)
            .collect(Collectors.joining(",", "[", "]"))
        + ",\"failure\":null,\"resubmitted_task_ids\":[],\"tasks\":["
        + String.join(",", tasks) + "]}";
  }

  /** A stage with no present-parent subtleties: one successful task per given duration. */
  static String simpleStage(int stageId, long submitMs, long completeMs, List<Integer> parents,
      long... durations) {
    String[] tasks = new String[durations.length];
    for (int i = 0; i < durations.length; i++) {
      tasks[i] = task(i, 0, submitMs, durations[i], "host-" + i, "ANY", "SUCCESS");
    }
    return stage(stageId, 0, submitMs, completeMs, parents, tasks);
  }

  static String task(int index, int attempt, long launchMs, long durationMs, String host,
      String locality, String status) {
    return "{\"task_id\":" + (index * 100 + attempt) + ",\"index\":" + index
        + ",\"attempt\":" + attempt + ",\"launch_ms\":" + launchMs
        + ",\"duration_ms\":" + durationMs + ",\"run_ms\":" + durationMs
        + ",\"executor\":\"1\",\"host\":\"" + host + "\",\"locality\":\"" + locality
        + "\",\"speculative\":false,\"status\":\"" + status + "\"}";
  }

  static Path write(Path dir, String... lines) {
    return writeRaw(dir, Arrays.stream(lines).collect(Collectors.joining("\n", "", "\n")));
  }

  static Path writeRaw(Path dir, String content) {
    try {
      Path file = dir.resolve("test.trace.jsonl");
      Files.writeString(file, content, StandardCharsets.UTF_8);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Trace read(Path dir, String... lines) throws Exception {
    return Trace.read(write(dir, lines));
  }
}
