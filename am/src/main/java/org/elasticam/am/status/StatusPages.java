package org.elasticam.am.status;

import static org.elasticam.report.events.EventFields.CONF;
import static org.elasticam.report.events.EventFields.EVENT;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.elasticam.report.RunHistory;
import org.elasticam.report.RunReport;
import org.elasticam.report.SvgChart;
import org.elasticam.report.Timeline;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.elasticam.report.events.Event;

/**
 * What the live page answers ({@link StatusServer} serves it): {@code /}, the HTML page, and the
 * JSON under {@code /api/v1/}; 414 for a URI over 2,048 characters, 405 for anything but GET or
 * HEAD, 404 for unknown paths; {@code X-Content-Type-Options: nosniff} on every answer and a
 * Content-Security-Policy on the page.
 */
final class StatusPages {

  private static final Logger LOG = LoggerFactory.getLogger(StatusPages.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_URI_CHARS = 2048;
  private static final int REFRESH_SECONDS = 5;

  private StatusPages() {}

  /** Answers one request the filters let through. */
  static void handle(HttpServletRequest req, HttpServletResponse resp, StatusServer.Source source) {
    try {
      String method = req.getMethod();
      String path = req.getRequestURI();
      String query = req.getQueryString();
      int uriChars = path.length() + (query == null ? 0 : 1 + query.length());
      if (uriChars > MAX_URI_CHARS) {
        json(req, resp, 414, Map.of("error", "request URI too long"));
      } else if (!method.equals("GET") && !method.equals("HEAD")) {
        resp.addHeader("Allow", "GET, HEAD");
        json(req, resp, 405, Map.of("error", "method not allowed"));
      } else {
        route(req, resp, path, source);
      }
    } catch (Exception e) {
      LOG.warn("Status request failed: {}", e.toString());
      if (!resp.isCommitted()) {
        resp.reset();
        try {
          json(req, resp, 500, Map.of("error", "internal error"));
        } catch (IOException again) {
          LOG.debug("Could not answer the failed status request", again);
        }
      }
    }
  }

  private static void route(HttpServletRequest req, HttpServletResponse ex, String path, StatusServer.Source source)
      throws Exception {
    switch (path) {
      case "/" -> html(req, ex, page(source.snapshot(), history(source.eventLines())));
      case "/status", "/api/v1/status" -> json(req, ex, 200, source.snapshot());
      case "/api/v1/executors" -> json(req, ex, 200, fromHistory(source, StatusPages::executors));
      case "/api/v1/stages" -> json(req, ex, 200, fromHistory(source, StatusPages::stages));
      case "/api/v1/timeline" -> json(req, ex, 200, fromHistory(source, StatusPages::timeline));
      case "/api/v1/decisions" -> json(req, ex, 200, fromHistory(source, StatusPages::decisions));
      case "/api/v1/conf" -> json(req, ex, 200, conf(source.eventLines()));
      default -> json(req, ex, 404, Map.of("error", "not found"));
    }
  }

  /** A list drawn from the run so far; empty before the first event. */
  private static List<Map<String, Object>> fromHistory(StatusServer.Source source,
      Function<RunHistory, List<Map<String, Object>>> rows) throws Exception {
    RunHistory h = history(source.eventLines());
    return h == null ? List.of() : rows.apply(h);
  }

  /** The run so far; null before the first event. */
  private static RunHistory history(List<String> lines) throws IOException {
    try (BufferedReader r = new BufferedReader(new StringReader(String.join("\n", lines)))) {
      return RunHistory.read(r);
    } catch (RunHistory.BadEventLogException e) {
      return null;
    }
  }

  static String page(Map<String, Object> now, RunHistory h) {
    StringBuilder live = new StringBuilder("<table id=\"now\"><tr><th colspan=\"2\">now</th></tr>\n");
    flatten("", now, live);
    live.append("</table>\n<p>JSON: <a href=\"api/v1/status\">status</a> · <a href=\"api/v1/executors\">executors"
        + "</a> · <a href=\"api/v1/stages\">stages</a> · <a href=\"api/v1/timeline\">timeline</a> · "
        + "<a href=\"api/v1/decisions\">decisions</a> · <a href=\"api/v1/conf\">configuration</a></p>\n");
    if (h == null) {
      return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta http-equiv=\"refresh\" content=\""
          + REFRESH_SECONDS + "\"><title>ElasticAM</title></head><body><h1>ElasticAM</h1>\n" + live
          + "<p>No events yet.</p></body></html>\n";
    }
    return RunReport.html(h, "the live event log (reloads every " + REFRESH_SECONDS + " s)", live.toString(),
        REFRESH_SECONDS);
  }

  @SuppressWarnings("unchecked")
  private static void flatten(String prefix, Map<String, Object> m, StringBuilder out) {
    for (Map.Entry<String, Object> e : m.entrySet()) {
      String key = prefix + e.getKey();
      if (e.getValue() instanceof Map<?, ?> inner) {
        flatten(key + ".", (Map<String, Object>) inner, out);
      } else {
        out.append("<tr><td>").append(SvgChart.escape(key)).append("</td><td>")
            .append(SvgChart.escape(String.valueOf(e.getValue()))).append("</td></tr>\n");
      }
    }
  }

  private static List<Map<String, Object>> executors(RunHistory h) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (RunHistory.Executor e : h.launched()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("executor_id", e.id());
      m.put("host", e.host());
      m.put("launched_ts", e.launchedMs());
      m.put("removed_ts", e.removedMs() >= 0 ? e.removedMs() : null);
      m.put("removal_reason", e.removedMs() >= 0 ? e.removalReason() : null);
      m.put("exit_status", e.exitStatus());
      m.put("tasks", e.taskCount());
      m.put("busy_ms", e.busyMs(h.endMs()));
      out.add(m);
    }
    return out;
  }

  private static List<Map<String, Object>> stages(RunHistory h) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (RunHistory.Stage s : h.stages()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("stage_id", s.id());
      m.put("name", s.name());
      m.put("tasks", s.tasks());
      m.put("attempts_ended", h.tasks().stream().filter(t -> t.stageId() == s.id()).count());
      m.put("submitted_ts", s.submittedMs());
      m.put("completed_ts", s.completedMs() >= 0 ? s.completedMs() : null);
      m.put("failed", s.failed());
      m.put("counters", s.counters());
      out.add(m);
    }
    return out;
  }

  private static List<Map<String, Object>> timeline(RunHistory h) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (Timeline.Row r : h.timeline()) {
      out.add(Map.of("time_ms", r.timeMs(), "target", r.target(), "executors", r.executors(), "pending_tasks",
          r.pendingTasks(), "running_tasks", r.runningTasks()));
    }
    return out;
  }

  private static List<Map<String, Object>> decisions(RunHistory h) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (RunHistory.TargetChange c : h.targetChanges()) {
      out.add(Map.of("ts", c.timeMs(), "target", c.target(), "reason", c.reason()));
    }
    return out;
  }

  /** The resolved configuration as the AM logged it at start (the event log redacts secrets). */
  private static Object conf(List<String> lines) throws IOException {
    for (String line : lines) {
      var n = JSON.readTree(line);
      if (Event.byName(n.path(EVENT).asText()) == Event.APP_START) {
        return n.path(CONF);
      }
    }
    return Map.of();
  }

  private static void html(HttpServletRequest req, HttpServletResponse ex, String page) throws IOException {
    ex.addHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
    send(req, ex, 200, "text/html; charset=utf-8", page.getBytes(StandardCharsets.UTF_8));
  }

  /** A JSON answer with the page's headers; the filters in front of the page answer with it too. */
  static void json(HttpServletRequest req, HttpServletResponse ex, int code, Object body) throws IOException {
    send(req, ex, code, "application/json; charset=utf-8",
        JSON.writeValueAsString(body).getBytes(StandardCharsets.UTF_8));
  }

  private static void send(HttpServletRequest req, HttpServletResponse ex, int code, String type, byte[] bytes)
      throws IOException {
    ex.setStatus(code);
    ex.setHeader("Content-Type", type);
    ex.addHeader("X-Content-Type-Options", "nosniff");
    ex.setContentLength(bytes.length);
    if (!req.getMethod().equals("HEAD")) {
      try (OutputStream out = ex.getOutputStream()) {
        out.write(bytes);
      }
    }
  }
}
