package org.elasticam.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChartPartsTest {

  @Test
  void timelineKeepsTheLastStateOfEachMillisecond() {
    Timeline t = new Timeline();
    t.observe(0, 0, 0, 0, 0);
    t.observe(100, 1, 0, 4, 0);
    t.observe(100, 1, 1, 4, 0);
    t.observe(200, 1, 1, 4, 0);
    t.observe(300, 1, 1, 3, 1);
    t.observe(300, 1, 1, 4, 0);
    assertEquals(List.of(new Timeline.Row(0, 0, 0, 0, 0), new Timeline.Row(100, 1, 1, 4, 0)), t.rows());
  }

  @Test
  void chartSteps() {
    assertEquals(1, SvgChart.niceStep(3, 4));
    assertEquals(20_000, SvgChart.niceStep(143_345, 8));
    assertEquals(50, SvgChart.niceStep(200, 4));
    List<Timeline.Row> rows = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      rows.add(new Timeline.Row(i, 0, i % 7, 0, 0));
    }
    String path = SvgChart.stepPath(rows, Timeline.Row::executors, 10_000, 0, 10);
    assertTrue(path.length() < 80_000, "one stroke per half pixel, not per change: " + path.length());
    assertEquals("a &lt;b&gt; &amp; &quot;c&quot;", SvgChart.escape("a <b> & \"c\""));
  }
}
