package org.elasticam.sim.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/** A case result as one JSON line, and back: the format of the matrix's result files. */
final class MatrixJson {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CASE_FIELDS = "slice workload label conditions";

  private MatrixJson() {}

  static String line(CaseResult r) {
    MatrixCase c = r.matrixCase();
    Conditions k = c.conditions();
    ObjectNode o = JSON.createObjectNode();
    o.put("id", c.id());
    o.put("slice", c.slice());
    o.put("workload", c.workload());
    o.put("label", c.label());
    ObjectNode cond = o.putObject("conditions");
    cond.put("time_scale", k.timeScale());
    cond.put("start_ms", k.startMs());
    cond.put("grant_ms", k.grantMs());
    cond.put("heartbeat_ms", k.heartbeatMs());
    cond.put("capacity", k.capacity());
    cond.put("executor_cores", k.executorCores());
    ObjectNode results = o.putObject("results");
    r.byPolicy().keySet().stream().sorted().forEach(p -> {
      CaseResult.Figures f = r.of(p);
      ObjectNode n = results.putObject(p);
      n.put("makespan_ms", f.makespanMs());
      n.put("executor_ms", f.executorMs());
      n.put("idle_executor_ms", f.idleExecutorMs());
      n.put("peak_executors", f.peakExecutors());
    });
    return o.toString();
  }

  static CaseResult parse(String line) {
    try {
      JsonNode o = JSON.readTree(line);
      for (String f : CASE_FIELDS.split(" ")) {
        if (!o.has(f)) {
          throw new IllegalArgumentException("a matrix result line without " + f + ": " + line);
        }
      }
      JsonNode k = o.get("conditions");
      Conditions cond = new Conditions(k.get("time_scale").asDouble(), k.get("start_ms").asLong(),
          k.get("grant_ms").asLong(), k.get("heartbeat_ms").asLong(), k.get("capacity").asInt(),
          k.get("executor_cores").asInt());
      MatrixCase c = new MatrixCase(o.get("slice").asText(), o.get("workload").asText(), o.get("label").asText(), cond);
      Map<String, CaseResult.Figures> by = new LinkedHashMap<>();
      Iterator<Map.Entry<String, JsonNode>> it = o.get("results").fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        JsonNode n = e.getValue();
        by.put(e.getKey(), new CaseResult.Figures(n.get("makespan_ms").asLong(), n.get("executor_ms").asLong(),
            n.get("idle_executor_ms").asLong(), n.get("peak_executors").asInt()));
      }
      return new CaseResult(c, by);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException("not a matrix result line: " + e.getOriginalMessage(), e);
    }
  }
}
