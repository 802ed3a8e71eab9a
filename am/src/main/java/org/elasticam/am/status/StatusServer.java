package org.elasticam.am.status;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The AM's tracking URL: a small HTTP endpoint serving the application's state as JSON at
 * {@code /status} (and {@code /}). Read-only: anything but GET or HEAD gets 405, unknown paths
 * 404, and state is taken on the event loop, so it is never torn.
 */
public final class StatusServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(StatusServer.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_URI_CHARS = 2048;

  private final HttpServer server;

  /** @param snapshot called for every request; returns the state to show */
  public StatusServer(String bindHost, Callable<Map<String, Object>> snapshot) throws IOException {
    server = HttpServer.create(new InetSocketAddress(bindHost, 0), 16);
    server.createContext("/", exchange -> handle(exchange, snapshot));
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

  private static void handle(HttpExchange ex, Callable<Map<String, Object>> snapshot) throws IOException {
    try (ex) {
      String method = ex.getRequestMethod();
      String path = ex.getRequestURI().getRawPath();
      if (ex.getRequestURI().toString().length() > MAX_URI_CHARS) {
        reply(ex, 414, Map.of("error", "request URI too long"));
      } else if (!method.equals("GET") && !method.equals("HEAD")) {
        ex.getResponseHeaders().add("Allow", "GET, HEAD");
        reply(ex, 405, Map.of("error", "method not allowed"));
      } else if (!path.equals("/") && !path.equals("/status")) {
        reply(ex, 404, Map.of("error", "not found"));
      } else {
        reply(ex, 200, snapshot.call());
      }
    } catch (Exception e) {
      LOG.warn("Status request failed: {}", e.toString());
    }
  }

  private static void reply(HttpExchange ex, int code, Map<String, Object> body) throws IOException {
    byte[] bytes = JSON.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
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
