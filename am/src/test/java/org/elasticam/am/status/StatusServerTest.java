package org.elasticam.am.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.elasticam.report.ReportStructure;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

class StatusServerTest {

  private final List<String> lines = new ArrayList<>();
  private final Map<String, Object> now = new LinkedHashMap<>();
  private StatusServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    server = new StatusServer(StatusServer.Front.open("127.0.0.1"), new StatusServer.Source() {
      @Override
      public Map<String, Object> snapshot() {
        return Map.copyOf(now);
      }

      @Override
      public List<String> eventLines() {
        return List.copyOf(lines);
      }
    });
    now.put("state", "RUNNING");
    now.put("executors", Map.of("target", 2, "running", 1));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private void run() {
    lines.add("{\"ts\":1000,\"event\":\"app_start\",\"app_id\":\"application_1_0001\",\"attempt\":1,"
        + "\"conf\":{\"elasticam.executor.cores\":\"2\",\"elasticam.secret\":\"<redacted>\"}}");
    lines.add("{\"ts\":1000,\"event\":\"target_changed\",\"target\":2,\"previous\":0,\"reason\":\"initial executors\"}");
    lines.add("{\"ts\":1100,\"event\":\"executor_launched\",\"executor_id\":\"1\",\"container_id\":\"c1\","
        + "\"host\":\"h1\"}");
    // The host an executor reports is its own word: shown, never interpreted.
    lines.add("{\"ts\":1200,\"event\":\"executor_launched\",\"executor_id\":\"2\",\"container_id\":\"c2\","
        + "\"host\":\"<script>alert(1)</script>\"}");
    lines.add("{\"ts\":2000,\"event\":\"stage_submitted\",\"stage_id\":0,\"tasks\":2}");
    lines.add("{\"ts\":3000,\"event\":\"task_end\",\"stage_id\":0,\"task\":0,\"executor_id\":\"1\",\"host\":\"h1\","
        + "\"locality\":\"NODE_LOCAL\",\"duration_ms\":900,\"status\":\"SUCCESS\"}");
  }

  @Test
  void theLivePageDrawsTheRunSoFar() throws Exception {
    HttpResponse<String> empty = get("/");
    assertEquals(200, empty.statusCode());
    assertTrue(empty.body().contains("No events yet"), empty.body());

    run();
    HttpResponse<String> page = get("/");
    assertEquals(200, page.statusCode());
    assertTrue(page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
    assertTrue(page.headers().firstValue("Content-Security-Policy").orElse("").contains("default-src 'none'"));
    String html = page.body();
    assertTrue(html.contains("<meta http-equiv=\"refresh\""), "reloads itself");
    assertTrue(html.contains("<td>executors.target</td><td>2</td>"), html);
    assertFalse(html.contains("<script>"), "executor-reported text is escaped");
    assertTrue(html.contains("&lt;script&gt;"));
    List<Document> svgs = ReportStructure.svgs(html);
    assertEquals(2, svgs.size());
    assertEquals(2, ReportStructure.rects(svgs.get(1), "held"));
    assertEquals(1, ReportStructure.rects(svgs.get(1), "task"));
    assertTrue(html.contains("initial executors"), "the decisions table");
    for (String link : List.of("api/v1/status", "api/v1/executors", "api/v1/conf")) {
      assertTrue(html.contains("href=\"" + link + "\""), "relative links work through the RM proxy: " + link);
    }
  }

  @Test
  void theApiServesTheSameData() throws Exception {
    run();
    ObjectMapper json = new ObjectMapper();
    JsonNode executors = json.readTree(get("/api/v1/executors").body());
    assertEquals(2, executors.size());
    assertEquals("h1", executors.get(0).get("host").asText());
    assertEquals(1, executors.get(0).get("tasks").asInt());
    assertEquals(900, executors.get(0).get("busy_ms").asLong());
    assertTrue(executors.get(1).get("removed_ts").isNull());
    JsonNode stages = json.readTree(get("/api/v1/stages").body());
    assertEquals(2, stages.get(0).get("tasks").asInt());
    assertEquals("initial executors", json.readTree(get("/api/v1/decisions").body()).get(0).get("reason").asText());
    assertEquals("<redacted>", json.readTree(get("/api/v1/conf").body()).get("elasticam.secret").asText());
    assertTrue(json.readTree(get("/api/v1/timeline").body()).size() > 1);
    assertEquals("RUNNING", json.readTree(get("/api/v1/status").body()).get("state").asText());
    assertEquals("RUNNING", json.readTree(get("/status").body()).get("state").asText());
  }

  @Test
  void onlyReadsOfKnownPaths() throws Exception {
    assertEquals(404, get("/api/v1/nope").statusCode());
    assertEquals(404, get("/api%2Fv1%2Fstatus").statusCode());
    // A path that climbs above the root is no path at all: Jetty refuses it, in the page's JSON.
    HttpResponse<String> climbing = get("/..%2F..%2Fetc%2Fpasswd");
    assertEquals(400, climbing.statusCode());
    assertEquals("{\"error\":\"bad request\"}", climbing.body());
    assertEquals("nosniff", climbing.headers().firstValue("X-Content-Type-Options").orElse(""));
    assertEquals(414, get("/status?x=" + "a".repeat(4000)).statusCode());
    HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
        + "/api/v1/status")).POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(405, post.statusCode());
    assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElse(""));
    for (String method : List.of("PUT", "DELETE", "TRACE", "OPTIONS")) {
      assertEquals(405, http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/"))
          .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString())
          .statusCode(), method);
    }
    HttpResponse<String> head = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
        + "/api/v1/status")).method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, head.statusCode());
    assertEquals("", head.body());
    assertEquals("nosniff", head.headers().firstValue("X-Content-Type-Options").orElse(""));
    assertTrue(head.headers().firstValue("Server").isEmpty(), "no server name or version");
  }
}
