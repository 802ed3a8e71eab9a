package org.elasticam.report;

import java.util.List;
import java.util.Locale;
import java.util.function.ToIntFunction;

/**
 * A self-contained SVG of one run (no script, no external resource): executors held and the
 * target above, running and running + pending tasks below, on one time axis. Tasks often outnumber
 * executors a hundredfold, so each panel has its own scale. Lines are step functions, drawn with
 * at most one vertical stroke per pixel column, so a run with tens of thousands of changes stays a
 * small file.
 */
public final class SvgChart {

  private static final int WIDTH = 960;
  private static final int LEFT = 70;
  private static final int RIGHT = 24;
  private static final int PLOT_W = WIDTH - LEFT - RIGHT;
  private static final int PANEL_H = 190;
  private static final int TOP1 = 76;
  private static final int TOP2 = TOP1 + PANEL_H + 56;
  private static final int HEIGHT = TOP2 + PANEL_H + 48;

  private SvgChart() {}

  /** @param subtitle one line of figures under the title */
  public static String render(String title, String subtitle, List<Timeline.Row> rows) {
    long end = Math.max(1, rows.isEmpty() ? 1 : rows.get(rows.size() - 1).timeMs());
    StringBuilder svg = new StringBuilder(16_384);
    svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"")
        .append(HEIGHT).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT)
        .append("\" font-family=\"sans-serif\" font-size=\"12\">\n")
        .append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n")
        .append("<text x=\"").append(LEFT).append("\" y=\"22\" font-size=\"15\">").append(escape(title))
        .append("</text>\n<text x=\"").append(LEFT).append("\" y=\"42\" fill=\"#444\">").append(escape(subtitle))
        .append("</text>\n");
    int maxExecutors = max(rows, r -> Math.max(r.executors(), r.target()));
    panel(svg, rows, end, TOP1, maxExecutors, "executors",
        new Series("target", "#9e9e9e", "5,4", Timeline.Row::target),
        new Series("executors held", "#1f6fb4", null, Timeline.Row::executors));
    int maxTasks = max(rows, r -> r.runningTasks() + r.pendingTasks());
    panel(svg, rows, end, TOP2, maxTasks, "tasks",
        new Series("running + pending tasks", "#e6820e", null, r -> r.runningTasks() + r.pendingTasks()),
        new Series("running tasks", "#2e9b47", null, Timeline.Row::runningTasks));
    timeAxis(svg, end, TOP2 + PANEL_H);
    return svg.append("</svg>\n").toString();
  }

  private record Series(String label, String color, String dash, ToIntFunction<Timeline.Row> value) {}

  private static void panel(StringBuilder svg, List<Timeline.Row> rows, long end, int top, int maxValue,
      String axisLabel, Series... series) {
    long vMax = Math.max(1, niceCeiling(maxValue));
    svg.append("<g>\n");
    long step = niceStep(vMax, 4);
    for (long v = 0; v <= vMax; v += step) {
      double y = top + PANEL_H - (double) v / vMax * PANEL_H;
      svg.append("<line x1=\"").append(LEFT).append("\" x2=\"").append(LEFT + PLOT_W).append("\" y1=\"").append(f(y))
          .append("\" y2=\"").append(f(y)).append("\" stroke=\"#e5e5e5\"/>")
          .append("<text x=\"").append(LEFT - 6).append("\" y=\"").append(f(y + 4))
          .append("\" text-anchor=\"end\">").append(v).append("</text>\n");
    }
    svg.append("<text transform=\"translate(16,").append(top + PANEL_H / 2).append(") rotate(-90)\"")
        .append(" text-anchor=\"middle\">").append(axisLabel).append("</text>\n");
    int legendX = LEFT;
    for (Series s : series) {
      svg.append("<path fill=\"none\" stroke=\"").append(s.color).append("\" stroke-width=\"1.5\"")
          .append(s.dash == null ? "" : " stroke-dasharray=\"" + s.dash + "\"").append(" d=\"")
          .append(stepPath(rows, s.value, end, top, vMax)).append("\"/>\n");
      svg.append("<rect x=\"").append(legendX).append("\" y=\"").append(top - 16).append("\" width=\"14\" height=\"4\"")
          .append(" fill=\"").append(s.color).append("\"/><text x=\"").append(legendX + 18).append("\" y=\"")
          .append(top - 10).append("\">").append(s.label).append("</text>\n");
      legendX += 26 + 7 * s.label.length();
    }
    svg.append("<rect x=\"").append(LEFT).append("\" y=\"").append(top).append("\" width=\"").append(PLOT_W)
        .append("\" height=\"").append(PANEL_H).append("\" fill=\"none\" stroke=\"#888\"/>\n</g>\n");
  }

  /**
   * A step line through the rows: horizontal to each change, then vertical; within one pixel column
   * only the lowest, highest and last values are drawn.
   */
  static String stepPath(List<Timeline.Row> rows, ToIntFunction<Timeline.Row> value, long end, int top, long vMax) {
    StringBuilder d = new StringBuilder();
    long column = Long.MIN_VALUE;
    double lo = 0;
    double hi = 0;
    double last = 0;
    for (Timeline.Row r : rows) {
      long col = Math.round((double) r.timeMs() / end * PLOT_W * 2);
      double y = top + PANEL_H - (double) value.applyAsInt(r) / vMax * PANEL_H;
      if (col != column) {
        flush(d, column, lo, hi, last);
        column = col;
        lo = y;
        hi = y;
        if (d.length() == 0) {
          d.append('M').append(f(LEFT + col / 2.0)).append(',').append(f(y));
        }
      }
      lo = Math.min(lo, y);
      hi = Math.max(hi, y);
      last = y;
    }
    flush(d, column, lo, hi, last);
    return d.append(" H").append(f(LEFT + PLOT_W)).toString();
  }

  private static void flush(StringBuilder d, long column, double lo, double hi, double last) {
    if (column == Long.MIN_VALUE) {
      return;
    }
    d.append(" H").append(f(LEFT + column / 2.0));
    if (lo != hi) {
      d.append(" V").append(f(lo)).append(" V").append(f(hi));
    }
    d.append(" V").append(f(last));
  }

  private static void timeAxis(StringBuilder svg, long endMs, int y) {
    long step = niceStep(endMs, 8);
    for (long t = 0; t <= endMs; t += step) {
      double x = LEFT + (double) t / endMs * PLOT_W;
      svg.append("<text x=\"").append(f(x)).append("\" y=\"").append(y + 16).append("\" text-anchor=\"middle\">")
          .append(seconds(t)).append("</text>\n");
    }
    svg.append("<text x=\"").append(LEFT + PLOT_W / 2).append("\" y=\"").append(y + 36)
        .append("\" text-anchor=\"middle\">time since start (s)</text>\n");
  }

  private static String seconds(long ms) {
    return ms % 1000 == 0 ? String.valueOf(ms / 1000) : java.math.BigDecimal.valueOf(ms, 3).stripTrailingZeros().toPlainString();
  }

  /** 1, 2 or 5 times a power of ten, so that about {@code ticks} steps cover {@code range}. */
  static long niceStep(long range, int ticks) {
    long raw = Math.max(1, range / ticks);
    long magnitude = 1;
    while (magnitude <= raw / 10) {
      magnitude *= 10;
    }
    for (long m : new long[] {1, 2, 5, 10}) {
      if (m * magnitude >= raw) {
        return m * magnitude;
      }
    }
    return 10 * magnitude;
  }

  private static long niceCeiling(long v) {
    long step = niceStep(Math.max(1, v), 4);
    return (v + step - 1) / step * step;
  }

  private static int max(List<Timeline.Row> rows, ToIntFunction<Timeline.Row> f) {
    int m = 0;
    for (Timeline.Row r : rows) {
      m = Math.max(m, f.applyAsInt(r));
    }
    return m;
  }

  private static String f(double v) {
    String s = String.format(Locale.ROOT, "%.1f", v);
    return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
  }

  public static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
