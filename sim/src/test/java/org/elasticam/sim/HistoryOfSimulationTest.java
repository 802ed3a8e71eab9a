package org.elasticam.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.elasticam.report.ReportStructure;
import org.elasticam.report.RunHistory;
import org.elasticam.report.RunReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/** The report of a simulated run agrees with the simulator's own figures. */
class HistoryOfSimulationTest {

  @TempDir
  Path dir;

  @Test
  void theSimulatorsLogGivesTheSimulatorsFigures() throws Exception {
    Path trace = Traces.write(dir, "small", Traces.stage(0, 0, List.of(), 2000, 3000, 2500, 1000),
        Traces.stage(1, 9000, List.of(0), 1000, 1500));
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    assertEquals(0, SimulateMain.run(new String[] {"--trace", trace.toString(), "--policy", "spark", "--json",
        "--out", dir.resolve("sim").toString()}, new PrintStream(o, true, StandardCharsets.UTF_8), System.err));
    JsonNode sim = new ObjectMapper().readTree(o.toString(StandardCharsets.UTF_8).lines().findFirst().orElseThrow());
    Path log;
    try (var files = Files.list(dir.resolve("sim"))) {
      log = files.filter(p -> p.toString().endsWith(".jsonl")).findFirst().orElseThrow();
    }
    RunHistory h;
    try (var r = Files.newBufferedReader(log)) {
      h = RunHistory.read(r);
    }
    assertEquals(java.util.Set.of(), h.beyondSchema(), "the simulator writes the schema's events and fields only");
    Files.writeString(dir.resolve("r.html"), RunReport.html(h, log.toString()));
    assertEquals(sim.get("executor_seconds").asDouble(), h.heldSeconds(), 0.01);
    assertEquals(sim.get("peak_executors").asInt(), h.maxConcurrentExecutors());
    assertEquals(6, h.tasks().size());
    List<Document> svgs = ReportStructure.svgs(Files.readString(dir.resolve("r.html")));
    assertEquals(h.launched().size(), ReportStructure.rects(svgs.get(1), "held"));
  }
}
