package org.elasticam.sim;

import org.elasticam.report.Timeline;
import org.elasticam.report.SvgChart;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** What {@code --out DIR} writes per policy: {@code <trace>.<policy>.jsonl}, {@code .csv} and {@code .svg}. */
final class OutputFiles {

  private final Path dir;
  private final String trace;

  private OutputFiles(Path dir, String trace) {
    this.dir = dir;
    this.trace = trace;
  }

  /** @throws IOException when the directory cannot be created */
  static OutputFiles in(Path dir, String trace) throws IOException {
    Files.createDirectories(dir);
    return new OutputFiles(dir, trace);
  }

  Path path(String policy, String extension) {
    return dir.resolve(trace + "." + policy + "." + extension);
  }

  /** The event log of a run, for the run to write into while it goes. */
  BufferedWriter eventLog(String policy) throws IOException {
    return Files.newBufferedWriter(path(policy, "jsonl"), StandardCharsets.UTF_8);
  }

  void writeTimeline(SimResult r) throws IOException {
    try (Writer w = Files.newBufferedWriter(path(r.policy(), "csv"), StandardCharsets.UTF_8)) {
      Timeline.writeCsv(r.timeline(), w);
    }
    String figures = "makespan " + SimResult.seconds(r.makespanMs()) + " s, " + r.executorSeconds()
        + " executor-seconds (" + r.idleExecutorSeconds() + " idle), peak " + r.peakExecutors() + " executors";
    Files.writeString(path(r.policy(), "svg"), SvgChart.render(trace + " — " + r.policy(), figures, r.timeline()),
        StandardCharsets.UTF_8);
  }
}
