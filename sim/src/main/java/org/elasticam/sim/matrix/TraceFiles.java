package org.elasticam.sim.matrix;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.elasticam.workload.Trace;
import org.elasticam.workload.TraceStage;
import org.elasticam.workload.TraceTask;

/** Writes a trace (a synthetic workload) in the shared traces' format, so that {@code simulate} and the {@code trace} job can replay it. */
final class TraceFiles {

  private static final ObjectMapper JSON = new ObjectMapper();

  private TraceFiles() {}

  static void write(Trace trace, Path file) throws IOException {
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      int taskId = 0;
      for (TraceStage s : trace.stageAttempts()) {
        ObjectNode o = JSON.createObjectNode();
        o.put("stage_id", s.stageId());
        o.put("attempt", s.attempt());
        o.put("name", s.name());
        o.put("submit_ms", s.submitMs());
        o.put("complete_ms", s.completeMs());
        o.put("num_tasks", s.tasks().size());
        ArrayNode parents = o.putArray("parents");
        s.parents().forEach(parents::add);
        ArrayNode tasks = o.putArray("tasks");
        for (TraceTask t : s.tasks()) {
          ObjectNode n = tasks.addObject();
          n.put("task_id", taskId++);
          n.put("index", t.index());
          n.put("attempt", t.attempt());
          n.put("launch_ms", t.launchMs());
          n.put("duration_ms", t.durationMs());
          n.put("host", t.host());
          n.put("locality", t.locality());
          n.put("speculative", t.speculative());
          n.put("status", t.status());
        }
        w.write(o.toString());
        w.newLine();
      }
    }
  }
}
