package org.elasticam.workload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns one trace line into a {@link TraceStage}, checking every field the replay uses and naming
 * the field when one is wrong. Fields the replay does not use are not looked at, so unknown or
 * future fields are harmless.
 */
final class StageAttemptParser {

  // Duplicate keys and a second value on the line are refused: either way we would silently
  // pick one of two readings of the line.
  private static final ObjectMapper JSON = JsonMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .build();

  private StageAttemptParser() {}

  /** @throws TraceProblem when the line is not a valid stage attempt */
  static TraceStage parse(byte[] bytes, int length) {
    JsonFields stage = JsonFields.of(readTree(bytes, length), "");
    int stageId = stage.nonNegativeInt("stage_id");
    int attempt = stage.nonNegativeInt("attempt");
    String name = stage.optionalText("name");
    List<Integer> parents = new ArrayList<>();
    List<JsonNode> parentNodes = stage.array("parents");
    for (int i = 0; i < parentNodes.size(); i++) {
      parents.add(JsonFields.nonNegativeInt(parentNodes.get(i), "parents[" + i + "]"));
    }
    List<TraceTask> tasks = new ArrayList<>();
    List<JsonNode> taskNodes = stage.array("tasks");
    for (int i = 0; i < taskNodes.size(); i++) {
      tasks.add(task(JsonFields.of(taskNodes.get(i), "tasks[" + i + "]")));
    }
    long submitMs = stage.optionalMillis("submit_ms", () -> earliestLaunch(tasks));
    long completeMs = stage.optionalMillis("complete_ms", () -> latestFinish(submitMs, tasks));
    if (completeMs < submitMs) {
      throw new TraceProblem(
          "complete_ms (" + completeMs + ") is before submit_ms (" + submitMs + ")");
    }
    return new TraceStage(stageId, attempt, name, submitMs, completeMs, parents, tasks);
  }

  private static TraceTask task(JsonFields task) {
    return new TraceTask(task.nonNegativeInt("index"), task.nonNegativeInt("attempt"),
        task.millis("launch_ms"), task.millis("duration_ms"), task.optionalText("host"),
        task.optionalText("locality"), task.bool("speculative"), status(task));
  }

  private static String status(JsonFields task) {
    String status = task.text("status");
    if (status.equals(TraceTask.SUCCESS) || status.equals("KILLED")
        || status.equals("FAILED") || status.startsWith("FAILED:")) {
      return status;
    }
    throw new TraceProblem(task.where("status")
        + ": must be SUCCESS, KILLED or FAILED:<reason>, got " + JsonFields.quote(status));
  }

  // The generator writes null when the log lacked the stage's own timestamps; the tasks still
  // date the stage well enough for replay.
  private static long earliestLaunch(List<TraceTask> tasks) {
    return tasks.stream().mapToLong(TraceTask::launchMs).min().orElseThrow(() ->
        new TraceProblem("submit_ms is null and the stage has no task to date it by"));
  }

  private static long latestFinish(long submitMs, List<TraceTask> tasks) {
    long finish = submitMs;
    for (TraceTask t : tasks) {
      finish = Math.max(finish, t.launchMs() + t.durationMs());
    }
    return finish;
  }

  private static JsonNode readTree(byte[] bytes, int length) {
    try {
      return JSON.readTree(bytes, 0, length);
    } catch (JsonProcessingException e) {
      throw new TraceProblem(JsonFields.malformed(e));
    } catch (IOException e) {
      // Reading from a byte array performs no I/O; anything else is still a broken line.
      throw new TraceProblem("malformed JSON: " + e.getMessage());
    }
  }
}
