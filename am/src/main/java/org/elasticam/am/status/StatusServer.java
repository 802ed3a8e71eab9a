package org.elasticam.am.status;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.elasticam.report.RunHistory;
import org.elasticam.report.RunReport;
import org.elasticam.report.SvgChart;
import org.elasticam.report.Timeline;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The AM's tracking URL. {@code /} is a live page (server-rendered HTML with inline SVG, no script,
 * nothing fetched; it reloads itself every few seconds): the state right now, then the run so far
 * drawn from the event log's lines — the same report {@code bin/elasticam history} writes. The
 * same data as JSON under {@code /api/v1/}: {@code status}, {@code executors}, {@code stages},
 * {@code timeline}, {@code decisions}, {@code conf} (as logged at start, secrets redacted);
 * {@code /status} stays for older clients. Links are relative, so the page works through the
 * ResourceManager's web proxy. Read-only: anything but GET or HEAD gets 405, unknown paths 404,
 * and state is taken on the event loop, so it is never torn.
 */
public final class StatusServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(StatusServer.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_URI_CHARS = 2048;
  private static final int REFRESH_SECONDS = 5;

  /** What a request may show: the state now, and the event log's lines so far. */
  public interface Source {
    Map<String, Object> snapshot() throws Exception;

    List<String> eventLines() throws Exception;
  }

  private final HttpServer server;

  public StatusServer(String bindHost, Source source) throws IOException {
    server = HttpServer.create(new InetSocketAddress(bindHost, 0), 16);
    server.createContext("/", exchange -> handle(exchange, source));
    server.setExecutor(Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "status-http");
      t.setDaemon(true);
      return t;
    }));
    server.start();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  private static void handle(HttpExchange ex, Source source) throws IOException {
    try (ex) {
      String method = ex.getRequestMethod();
      String path = ex.getRequestURI().getRawPath();
      if (ex.getRequestURI().toString().length() > MAX_URI_CHARS) {
        json(ex, 414, Map.of("error", "request URI too long"));
      } else if (!method.equals("GET") && !method.equals("HEAD")) {
        ex.getResponseHeaders().add("Allow", "GET, HEAD");
        json(ex, 405, Map.of("error", "method not allowed"));
      } else {
        route(ex, path, source);
      }
    } catch (Exception e) {
      LOG.warn("Status request failed: {}", e.toString());
    }
  }

  private static void route(HttpExchange ex, String path, Source source) throws Exception {
    switch (path) {
      case "/" -> html(ex, page(source.snapshot(), history(source.eventLines())));
      case "/status", "/api/v1/status" -> json(ex, 200, source.snapshot());
      case "/api/v1/executors" -> json(ex, 200, fromHistory(source, StatusServer::executors));
      case "/api/v1/stages" -> json(ex, 200, fromHistory(source, StatusServer::stages));
      case "/api/v1/timeline" -> json(ex, 200, fromHistory(source, StatusServer::timeline));
      case "/api/v1/decisions" -> json(ex, 200, fromHistory(source, StatusServer::decisions));
      case "/api/v1/conf" -> json(ex, 200, conf(source.eventLines()));
      default -> json(ex, 404, Map.of("error", "not found"));
    }
  }

  /** A list drawn from the run so far; empty before the first event. */
  private static List<Map<String, Object>> fromHistory(Source source,
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
      m.put("tasks", s.tasks());
      m.put("attempts_ended", h.tasks().stream().filter(t -> t.stageId() == s.id()).count());
      m.put("submitted_ts", s.submittedMs());
      m.put("completed_ts", s.completedMs() >= 0 ? s.completedMs() : null);
      m.put("failed", s.failed());
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
      if ("app_start".equals(n.path("event").asText())) {
        return n.path("conf");
      }
    }
    return Map.of();
  }

  private static void html(HttpExchange ex, String page) throws IOException {
    ex.getResponseHeaders().add("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
    send(ex, 200, "text/html; charset=utf-8", page.getBytes(StandardCharsets.UTF_8));
  }

  private static void json(HttpExchange ex, int code, Object body) throws IOException {
    send(ex, code, "application/json; charset=utf-8", JSON.writeValueAsString(body).getBytes(StandardCharsets.UTF_8));
  }

  private static void send(HttpExchange ex, int code, String type, byte[] bytes) throws IOException {
    ex.getResponseHeaders().add("Content-Type", type);
    ex.getResponseHeaders().add("X-Content-Type-Options", "nosniff");
    boolean head = ex.getRequestMethod().equals("HEAD");
    ex.sendResponseHeaders(code, head ? -1 : bytes.length);
    if (!head) {
      try (OutputStream out = ex.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
