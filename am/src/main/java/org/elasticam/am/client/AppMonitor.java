package org.elasticam.am.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.util.EnumSet;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.elasticam.time.Clock;

/**
 * Follows an application to its end and shows its progress: one updating line on a terminal
 * (state, progress, executors running/target, tasks done/total), plain lines every few seconds
 * otherwise. Executor and task counts come from the AM's status endpoint when it answers.
 */
public final class AppMonitor {

  private static final EnumSet<YarnApplicationState> DONE =
      EnumSet.of(YarnApplicationState.FINISHED, YarnApplicationState.FAILED, YarnApplicationState.KILLED);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long PLAIN_EVERY_MS = 5_000;

  private final YarnClient yarn;
  private final PrintStream out;
  private final boolean terminal;
  private final Clock clock;

  public AppMonitor(YarnClient yarn, PrintStream out, boolean terminal, Clock clock) {
    this.clock = clock;
    this.yarn = yarn;
    this.out = out;
    this.terminal = terminal;
  }

  public ApplicationReport waitForEnd(ApplicationId id) throws Exception {
    String last = "";
    long lastPrinted = 0;
    while (true) {
      ApplicationReport r = yarn.getApplicationReport(id);
      if (DONE.contains(r.getYarnApplicationState())) {
        if (terminal) {
          out.print("\r\033[K");
        }
        return r;
      }
      String line = line(r);
      long now = clock.nowMs();
      if (terminal) {
        out.print("\r\033[K" + line);
        out.flush();
      } else if (!line.equals(last) && now - lastPrinted >= PLAIN_EVERY_MS) {
        out.println(line);
        lastPrinted = now;
      }
      last = line;
      clock.sleep(terminal ? 500 : 1000);
    }
  }

  private static String line(ApplicationReport r) {
    StringBuilder sb = new StringBuilder();
    sb.append(r.getYarnApplicationState());
    sb.append(String.format("  %3d%%", Math.round(r.getProgress() * 100)));
    JsonNode s = status(r);
    if (s != null && s.has("executors")) {
      JsonNode e = s.get("executors");
      JsonNode t = s.get("tasks");
      sb.append("  executors ").append(e.path("registered").asInt()).append('/').append(e.path("target").asInt());
      JsonNode st = s.path("streaming");
      if (st.isObject()) {
        sb.append("  batches ").append(st.path("batches_done").asInt()).append('/').append(st.path("batches").asInt());
        JsonNode b = st.path("last_batch");
        if (b.isObject()) {
          // What streaming users watch: the last batch's processing time against the interval.
          sb.append("  last batch ").append(b.path("batch").asInt()).append(": ").append(b.path("processing_ms").asLong())
              .append('/').append(st.path("batch_ms").asLong()).append(" ms on ").append(b.path("executors").asInt())
              .append(" executors");
          if (b.path("scheduling_delay_ms").asLong() > 0) {
            sb.append(", ").append(b.path("scheduling_delay_ms").asLong()).append(" ms late");
          }
        }
        return sb.toString();
      }
      sb.append("  tasks ").append(t.path("done").asInt()).append('/').append(t.path("total").asInt());
      if (t.path("running").asInt() > 0) {
        sb.append(" (").append(t.path("running").asInt()).append(" running)");
      }
    }
    return sb.toString();
  }

  /** The AM's own status, straight from its tracking URL; null when it does not answer in time. */
  private static JsonNode status(ApplicationReport r) {
    String url = r.getOriginalTrackingUrl();
    if (url == null || !url.startsWith("http")) {
      return null;
    }
    try {
      HttpURLConnection c = (HttpURLConnection) URI.create(url.endsWith("/") ? url + "status" : url + "/status")
          .toURL().openConnection();
      c.setConnectTimeout(1000);
      c.setReadTimeout(1000);
      try (var in = c.getInputStream()) {
        return JSON.readTree(in.readNBytes(64 * 1024));
      } finally {
        c.disconnect();
      }
    } catch (Exception e) {
      return null;
    }
  }
}
