package org.elasticam.am.status;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import javax.net.ssl.SSLContext;
import javax.servlet.DispatcherType;
import javax.servlet.Filter;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.servlet.FilterHolder;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
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
 *
 * <p>Served by Jetty — the Jetty 9.4 that every YARN container's classpath has with Hadoop — with
 * the {@link Front}'s filters in front of the page (in a container: {@link LivePageFront}, which
 * admits only the ResourceManager's proxy and the users of the view ACL), over HTTPS when the
 * front has a TLS context. Nothing but this page is served: none of the servlets Hadoop's
 * HttpServer2 always adds (/conf, /jmx, /logLevel, /stacks, /logs, /prof), which would show the
 * AM's Hadoop configuration and internals, or let a viewer change its log levels.
 */
public final class StatusServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(StatusServer.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_URI_CHARS = 2048;
  private static final int REFRESH_SECONDS = 5;
  /** Jetty's acceptor and selector take one thread each; the rest answer requests. */
  private static final int THREADS = 6;
  private static final int ACCEPT_QUEUE = 16;

  /** What a request may show: the state now, and the event log's lines so far. */
  public interface Source {
    Map<String, Object> snapshot() throws Exception;

    List<String> eventLines() throws Exception;
  }

  /** A servlet filter in front of the page, with its init parameters, run in the order given. */
  public record PageFilter(String name, Filter filter, Map<String, String> params) {
    public PageFilter {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(filter, "filter");
      params = Map.copyOf(params);
    }
  }

  /**
   * HTTPS with this context, without the cipher suites named (besides those Jetty never offers).
   */
  public record Tls(SSLContext context, List<String> excludedCiphers) {
    public Tls {
      Objects.requireNonNull(context, "context");
      excludedCiphers = List.copyOf(excludedCiphers);
    }
  }

  /**
   * Where and how the page is served.
   *
   * @param tls null for plain HTTP
   */
  public record Front(String bindHost, Tls tls, List<PageFilter> filters) {
    public Front {
      Objects.requireNonNull(bindHost, "bindHost");
      filters = List.copyOf(filters);
    }

    /** Plain HTTP, nothing in front: for tests of the page itself. */
    public static Front open(String bindHost) {
      return new Front(bindHost, null, List.of());
    }
  }

  private final Server server;
  private final ServerConnector connector;
  private final String scheme;
  private final String host;

  public StatusServer(Front front, Source source) throws IOException {
    QueuedThreadPool threads = new QueuedThreadPool(THREADS, 2);
    threads.setName("status-http");
    threads.setDaemon(true);
    server = new Server(threads);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    if (front.tls() == null) {
      connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
    } else {
      // No SNI host check: the ResourceManager's proxy dials the tracking URL's address, not a name.
      http.addCustomizer(new SecureRequestCustomizer(false));
      SslContextFactory.Server tls = new SslContextFactory.Server();
      tls.setSslContext(front.tls().context());
      tls.addExcludeCipherSuites(front.tls().excludedCiphers().toArray(new String[0]));
      connector = new ServerConnector(server, 1, 1, new SslConnectionFactory(tls, HttpVersion.HTTP_1_1.asString()),
          new HttpConnectionFactory(http));
    }
    connector.setHost(front.bindHost());
    connector.setPort(0);
    connector.setAcceptQueueSize(ACCEPT_QUEUE);
    server.addConnector(connector);
    server.setHandler(context(front.filters(), source));
    server.setErrorHandler(quietErrors());
    try {
      server.start();
    } catch (Exception e) {
      close();
      throw new IOException("cannot start the live page on " + front.bindHost() + ": " + e.getMessage(), e);
    }
    scheme = front.tls() == null ? "http" : "https";
    host = front.bindHost();
  }

  private static ServletContextHandler context(List<PageFilter> filters, Source source) {
    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    context.setContextPath("/");
    for (PageFilter f : filters) {
      FilterHolder holder = new FilterHolder(f.filter());
      holder.setName(f.name());
      holder.setInitParameters(f.params());
      context.addFilter(holder, "/*", EnumSet.of(DispatcherType.REQUEST));
    }
    context.addServlet(new ServletHolder(new HttpServlet() {
      @Override
      protected void service(HttpServletRequest req, HttpServletResponse resp) {
        handle(req, resp, source);
      }
    }), "/*");
    context.setErrorHandler(quietErrors());
    return context;
  }

  /**
   * What Jetty answers itself — a URI that climbs above the root, a malformed request, a filter
   * that failed — in the page's own JSON, without stack traces or anything of the request.
   */
  private static ErrorHandler quietErrors() {
    ErrorHandler errors = new ErrorHandler() {
      @Override
      protected void generateAcceptableResponse(Request base, HttpServletRequest req, HttpServletResponse resp,
          int code, String message) throws IOException {
        base.setHandled(true);
        json(req, resp, code, Map.of("error", reason(code)));
      }

      @Override
      public ByteBuffer badMessageError(int status, String reason, HttpFields fields) {
        fields.put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
        fields.put("X-Content-Type-Options", "nosniff");
        return ByteBuffer.wrap(("{\"error\":\"" + reason(status) + "\"}").getBytes(StandardCharsets.UTF_8));
      }
    };
    errors.setShowStacks(false);
    errors.setShowServlet(false);
    errors.setShowMessageInTitle(false);
    return errors;
  }

  private static String reason(int code) {
    String known = HttpStatus.getMessage(code);
    return known == null ? "error " + code : known.toLowerCase(java.util.Locale.ROOT);
  }

  public int port() {
    return connector.getLocalPort();
  }

  /** The tracking URL: {@code http(s)://<bind host>:<port>/}. */
  public URI url() {
    return URI.create(scheme + "://" + host + ":" + port() + "/");
  }

  private static void handle(HttpServletRequest req, HttpServletResponse resp, Source source) {
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

  private static void route(HttpServletRequest req, HttpServletResponse ex, String path, Source source)
      throws Exception {
    switch (path) {
      case "/" -> html(req, ex, page(source.snapshot(), history(source.eventLines())));
      case "/status", "/api/v1/status" -> json(req, ex, 200, source.snapshot());
      case "/api/v1/executors" -> json(req, ex, 200, fromHistory(source, StatusServer::executors));
      case "/api/v1/stages" -> json(req, ex, 200, fromHistory(source, StatusServer::stages));
      case "/api/v1/timeline" -> json(req, ex, 200, fromHistory(source, StatusServer::timeline));
      case "/api/v1/decisions" -> json(req, ex, 200, fromHistory(source, StatusServer::decisions));
      case "/api/v1/conf" -> json(req, ex, 200, conf(source.eventLines()));
      default -> json(req, ex, 404, Map.of("error", "not found"));
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

  @Override
  public void close() {
    try {
      server.stop();
    } catch (Exception e) {
      LOG.warn("Stopping the live page failed: {}", e.toString());
    }
  }
}
