package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.elasticam.report.HistoryMain;
import org.elasticam.report.ReportStructure;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/**
 * The AM's live page and the report of the finished run, opened in a real browser: the charts are
 * in the DOM the browser built (one executor bar per launched executor, one task bar per task),
 * and screenshots land in target/screenshots. Skipped, saying so, where Chromium is not installed.
 */
class BrowserIT {

  private static final Path SHOTS = Path.of("target", "screenshots");
  private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G'};
  private static ItCluster it;

  @BeforeAll
  static void start() throws Exception {
    it = ItCluster.start("browser", s -> s);
  }

  @AfterAll
  static void stop() {
    if (it != null) {
      it.close();
    }
  }

  @Test
  void theLivePageAndTheReportRenderInABrowser() throws Exception {
    Optional<Chromium> browser = Chromium.find(Path.of("target", "chromium"));
    assumeTrue(browser.isPresent(), "Chromium is not installed (Debian package `chromium`): the browser check is "
        + "skipped; .ci/run installs it");
    Chromium chromium = browser.get();

    ItCluster.ClientRun run = it.client("submit", "--detach", "sleep", "--stages", "2", "--tasks", "8",
        "--task-ms", "2500", "--conf", "elasticam.executor.instances=2");
    assertEquals(0, run.exitCode(), run.out() + run.err());
    ApplicationId id = run.appId();
    // 20 s of tasks: the two browser runs on the live page take seconds each on a busy machine, and
    // the page goes when the application ends (4 tasks a stage once left the screenshot too late).
    it.awaitEvents(id, "task_end", 2, Duration.ofSeconds(90));
    // Through the ResourceManager's web proxy, the way a user's browser reaches the page.
    String live = it.proxiedTrackingUrl(id);
    List<Document> svgs = ReportStructure.svgs(chromium.dumpDom(live));
    assertEquals(2, svgs.size(), "the usage chart and the executor timeline");
    assertTrue(ReportStructure.rects(svgs.get(1), "held") >= 1);
    assertTrue(svgs.get(0).getElementsByTagName("path").getLength() >= 4, "the four series are drawn");
    assertPng(chromium.screenshot(live, SHOTS.resolve("live-ui.png")));

    ApplicationReport end = it.waitForEnd(id, Duration.ofSeconds(120));
    assertEquals(FinalApplicationStatus.SUCCEEDED, end.getFinalApplicationStatus(), end.getDiagnostics());
    Path html = SHOTS.resolve("report.html").toAbsolutePath();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(0, HistoryMain.run(new String[] {it.eventLog(id).toString(), "--out", html.toString()},
        new PrintStream(out, true, StandardCharsets.UTF_8), System.err));
    List<Document> report = ReportStructure.svgs(chromium.dumpDom(html.toUri().toString()));
    assertEquals(2, report.size());
    assertEquals(ItCluster.ofType(it.events(id), "executor_launched").size(), ReportStructure.rects(report.get(1),
        "held"), "one bar per executor");
    assertEquals(ItCluster.ofType(it.events(id), "task_end").size(), ReportStructure.rects(report.get(1), "task"),
        "one bar per task");
    assertPng(chromium.screenshot(html.toUri().toString(), SHOTS.resolve("report.png")));
  }

  private static void assertPng(Path p) throws Exception {
    byte[] b = Files.readAllBytes(p);
    assertArrayEquals(PNG, Arrays.copyOf(b, 4), p + " is a PNG");
    assertTrue(b.length > 20_000, p + " shows something: " + b.length + " bytes");
  }
}
