package org.elasticam.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A run's report: a few lines of text for the terminal, and one self-contained HTML file (inline
 * SVG, no script, nothing fetched) with the executors and tasks over time, an executor timeline,
 * the stages, locality and removals.
 */
public final class RunReport {

  private static final int GANTT_W = 960;
  private static final int GANTT_LEFT = 140;
  private static final int GANTT_ROW = 14;

  private RunReport() {}

  /** How many failed attempts the text lists with their errors; the rest are counted. */
  static final int FAILURES_SHOWN = 5;

  public static String text(RunHistory h) {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "%s%s: %s in %.1f s%n", h.appId.isEmpty() ? "run" : h.appId,
        h.attempt > 0 ? " (attempt " + h.attempt + ")" : "", h.ended ? h.finalStatus : "not ended (still running, "
            + "or its ApplicationMaster was stopped before it could record the end)", h.wallMs() / 1000.0));
    if (h.ended && !h.finalStatus.equals("SUCCEEDED") && !h.diagnostics.isBlank()) {
      b.append("why: ").append(h.diagnostics.strip()).append('\n');
    }
    double held = h.heldSeconds();
    double idle = h.idleSeconds();
    b.append(String.format(Locale.ROOT, "executors: %d launched, at most %d at once; executor-seconds %.1f%s, "
        + "idle %.1f (%.0f %%)%n", h.launched().size(), h.maxConcurrentExecutors(), held,
        h.loggedExecutorSeconds == null ? "" : String.format(Locale.ROOT, " (logged %.1f)", h.loggedExecutorSeconds),
        idle, held > 0 ? 100 * idle / held : 0));
    b.append("tasks: ").append(h.tasks.size()).append(" attempts ended ").append(h.taskStatuses())
        .append(h.inFlight.isEmpty() ? "" : ", " + h.inFlight.size() + " running").append('\n');
    b.append("locality of successful tasks: ").append(percentages(h.localityCounts())).append('\n');
    b.append("executors removed: ").append(h.removals().isEmpty() ? "none" : h.removals().toString()).append('\n');
    if (h.fetchFailures > 0 || !h.nodesExcluded.isEmpty()) {
      b.append("fetch failures: ").append(h.fetchFailures).append("; nodes excluded: ").append(h.nodesExcluded)
          .append('\n');
    }
    if (h.speculated > 0) {
      b.append(speculation(h)).append('\n');
    }
    if (!h.failedBatches.isEmpty()) {
      b.append("failed batches (abandoned; the stream went on): ").append(h.failedBatches.size()).append('\n');
      h.failedBatches.subList(Math.max(0, h.failedBatches.size() - FAILURES_SHOWN), h.failedBatches.size())
          .forEach(f -> b.append("  ").append(f).append('\n'));
    }
    List<RunHistory.Task> failed = h.failedWithErrors();
    if (!failed.isEmpty()) {
      b.append("failed attempts").append(failed.size() > FAILURES_SHOWN ? " (the last " + FAILURES_SHOWN + " of "
          + failed.size() + ")" : "").append(":\n");
      for (RunHistory.Task t : failed.subList(Math.max(0, failed.size() - FAILURES_SHOWN), failed.size())) {
        b.append(String.format(Locale.ROOT, "  %s task %d on executor %s (%s): %s%n", h.stageLabel(t.stageId()),
            t.index(), t.executorId(), t.host(), t.error()));
      }
    }
    for (RunHistory.Stage s : h.stages.values()) {
      List<RunHistory.Task> ts = h.tasks.stream().filter(t -> t.stageId() == s.id).toList();
      b.append(String.format(Locale.ROOT, "  %s: %d tasks, %d attempts, %s, median task %d ms%s%n", s.label(),
          s.tasks, ts.size(), s.completedMs >= 0 ? String.format(Locale.ROOT, "%.1f s", (s.completedMs
              - s.submittedMs) / 1000.0) : "not completed", median(ts), s.failed ? ", FAILED" : s.resubmissions > 0
                  ? ", resubmitted " + s.resubmissions + "x" : ""));
      if (!s.counters().isEmpty()) {
        b.append("    counters: ").append(counters(s)).append('\n');
      }
    }
    if (h.skippedTornLine > 0) {
      b.append("note: a line the AM was killed in the middle of was cut short and was skipped\n");
    }
    return b.toString();
  }

  public static String html(RunHistory h, String source) {
    return html(h, source, "", 0);
  }

  /**
   * The report with {@code liveHtml} (trusted markup) before it and, when {@code refreshSeconds}
   * is positive, a reload every that many seconds: the AM's live page.
   */
  public static String html(RunHistory h, String source, String liveHtml, int refreshSeconds) {
    String title = (h.appId.isEmpty() ? "Run" : h.appId) + " — " + (h.ended ? h.finalStatus : h.progress());
    StringBuilder b = new StringBuilder(64 * 1024);
    b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append(refreshSeconds > 0 ? "<meta http-equiv=\"refresh\" content=\"" + refreshSeconds + "\">" : "")
        .append("<title>")
        .append(SvgChart.escape(title)).append("</title>\n<style>body{font-family:sans-serif;margin:24px;max-width:"
            + "1000px}table{border-collapse:collapse;margin:8px 0 20px}td,th{border:1px solid #ccc;padding:3px 8px;"
            + "text-align:right}th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}pre{background:"
            + "#f7f7f7;padding:8px}</style></head><body>\n<h1>").append(SvgChart.escape(title)).append("</h1>\n<p>From ")
        .append(SvgChart.escape(source)).append("</p>\n").append(liveHtml).append("<pre>")
        .append(SvgChart.escape(text(h))).append("</pre>\n");
    b.append("<h2>Executors and tasks over time</h2>\n<div id=\"usage\">")
        .append(SvgChart.render(title, String.format(Locale.ROOT, "%.1f executor-seconds, %.0f %% idle",
            h.heldSeconds(), h.heldSeconds() > 0 ? 100 * h.idleSeconds() / h.heldSeconds() : 0), h.timeline()))
        .append("</div>\n");
    b.append("<h2>Executor timeline</h2>\n<div id=\"executors\">").append(gantt(h)).append("</div>\n");
    b.append("<h2>Stages</h2>\n<table id=\"stages\"><tr><th>stage</th><th>tasks</th><th>attempts</th><th>failed "
        + "attempts</th><th>submitted (s)</th><th>took (s)</th><th>median task (ms)</th><th>counters</th></tr>\n");
    for (RunHistory.Stage s : h.stages.values()) {
      List<RunHistory.Task> ts = h.tasks.stream().filter(t -> t.stageId() == s.id).toList();
      b.append(String.format(Locale.ROOT, "<tr><td>%s%s</td><td>%d</td><td>%d</td><td>%d</td><td>%.1f</td><td>%s"
          + "</td><td>%d</td><td style=\"text-align:left\">%s</td></tr>%n", SvgChart.escape(s.label()),
          s.failed ? " (failed)" : "", s.tasks, ts.size(),
          ts.stream().filter(t -> !t.status().equals("SUCCESS")).count(), (s.submittedMs - h.startMs) / 1000.0,
          s.completedMs >= 0 ? String.format(Locale.ROOT, "%.1f", (s.completedMs - s.submittedMs) / 1000.0) : "—",
          median(ts), SvgChart.escape(counters(s))));
    }
    b.append("</table>\n<h2>Executors</h2>\n<table id=\"executor-table\"><tr><th>executor</th><th>host</th>"
        + "<th>tasks</th><th>held (s)</th><th>busy (s)</th><th>removed</th></tr>\n");
    for (RunHistory.Executor e : h.launched()) {
      b.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%s</td><td>%d</td><td>%.1f</td><td>%.1f</td><td>%s"
          + "</td></tr>%n", SvgChart.escape(e.id), SvgChart.escape(e.host), e.tasks.size(),
          (e.heldUntil(h.endMs) - e.launchedMs) / 1000.0, e.busyMs(h.endMs) / 1000.0,
          SvgChart.escape(e.removedMs < 0 ? "held to the end" : e.removalReason
              + (e.exitStatus == null ? "" : ", exit " + e.exitStatus))));
    }
    b.append("</table>\n<h2>Allocation decisions</h2>\n<table id=\"decisions\"><tr><th>at (s)</th><th>target</th>"
        + "<th>why</th></tr>\n");
    List<RunHistory.TargetChange> changes = h.targetChanges();
    for (RunHistory.TargetChange c : changes.subList(Math.max(0, changes.size() - 50), changes.size())) {
      b.append(String.format(Locale.ROOT, "<tr><td>%.1f</td><td>%d</td><td style=\"text-align:left\">%s</td></tr>%n",
          (c.timeMs() - h.startMs) / 1000.0, c.target(), SvgChart.escape(c.reason())));
    }
    b.append("</table>\n");
    if (!h.failedBatches.isEmpty()) {
      b.append("<h2>Failed batches</h2>\n<ul>\n");
      h.failedBatches.subList(Math.max(0, h.failedBatches.size() - FAILURES_SHOWN), h.failedBatches.size())
          .forEach(f -> b.append("<li>").append(SvgChart.escape(f)).append("</li>\n"));
      b.append("</ul>\n");
    }
    if (h.speculated > 0) {
      b.append("<h2>Speculation</h2>\n<p>").append(SvgChart.escape(speculation(h))).append("</p>\n");
    }
    if (!h.nodesExcluded.isEmpty()) {
      b.append("<h2>Excluded nodes</h2>\n<p>").append(SvgChart.escape(h.nodesExcluded.toString())).append("</p>\n");
    }
    b.append("</body></html>\n");
    return b.toString();
  }

  /** One row per executor: a grey bar while held, green where a task ran on it. */
  static String gantt(RunHistory h) {
    List<RunHistory.Executor> ex = h.launched();
    long span = Math.max(1, h.wallMs());
    int plotW = GANTT_W - GANTT_LEFT - 24;
    int height = 30 + GANTT_ROW * Math.max(1, ex.size()) + 24;
    StringBuilder s = new StringBuilder();
    s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(GANTT_W).append("\" height=\"")
        .append(height).append("\" font-family=\"sans-serif\" font-size=\"11\">\n")
        .append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    for (int i = 0; i < ex.size(); i++) {
      RunHistory.Executor e = ex.get(i);
      int y = 20 + i * GANTT_ROW;
      s.append("<text x=\"4\" y=\"").append(y + 10).append("\">").append(SvgChart.escape(e.id + " " + e.host))
          .append("</text>\n");
      s.append(bar("held", x(e.launchedMs - h.startMs, span, plotW), x(e.heldUntil(h.endMs) - h.startMs, span, plotW),
          y, "#d0d7de"));
      for (RunHistory.Task t : e.tasks) {
        s.append(bar("task", x(t.startMs() - h.startMs, span, plotW), x(t.endMs() - h.startMs, span, plotW), y + 2,
            t.status().equals("SUCCESS") ? "#2e9b47" : "#c62828"));
      }
      for (RunHistory.Task t : e.runningTasks()) {
        s.append(bar("task-running", x(t.startMs() - h.startMs, span, plotW), x(h.wallMs(), span, plotW), y + 2,
            "#7fc98f"));
      }
    }
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">0 s</text><text x=\"%d\" y=\"%d\" "
        + "text-anchor=\"end\">%.1f s</text>%n", GANTT_LEFT, height - 6, GANTT_LEFT + plotW, height - 6, span / 1000.0));
    return s.append("</svg>\n").toString();
  }

  private static String bar(String cls, double x0, double x1, int y, String fill) {
    return String.format(Locale.ROOT, "<rect class=\"%s\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
        + "fill=\"%s\"/>%n", cls, GANTT_LEFT + x0, y, Math.max(0.5, x1 - x0), cls.equals("held") ? 12 : 8, fill);
  }

  private static double x(long ms, long span, int plotW) {
    return Math.max(0, Math.min(plotW, (double) ms * plotW / span));
  }

  private static long median(List<RunHistory.Task> ts) {
    List<Long> d = new ArrayList<>(ts.stream().map(t -> t.endMs() - t.startMs()).sorted().toList());
    return d.isEmpty() ? 0 : d.get((d.size() - 1) / 2);
  }

  /** {@code name=value, …} in name order; empty for a stage without counters. */
  static String counters(RunHistory.Stage s) {
    return s.counters().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(", "));
  }

  private static String percentages(Map<String, Integer> counts) {
    int total = counts.values().stream().mapToInt(Integer::intValue).sum();
    if (total == 0) {
      return "no successful tasks";
    }
    return counts.entrySet().stream().map(e -> String.format(Locale.ROOT, "%s %.0f %%", e.getKey(),
        100.0 * e.getValue() / total)).collect(Collectors.joining(", "));
  }

  private static String speculation(RunHistory h) {
    return "speculation: " + h.speculated + " slow task(s) copied; the copy finished first " + h.copiesWon
        + ", the original " + h.originalsWon;
  }
}
