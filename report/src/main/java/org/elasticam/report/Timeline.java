package org.elasticam.report;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;

/**
 * The run over time: the target, the executors held (started or starting), and the pending and
 * running tasks, one row at every change. Changes within one millisecond collapse into the state
 * at its end, so the rows do not depend on the order of simultaneous events.
 */
public final class Timeline {

  /** The state from {@code timeMs} until the next row. */
  public record Row(long timeMs, int target, int executors, int pendingTasks, int runningTasks) {

    boolean sameState(int t, int e, int p, int r) {
      return target == t && executors == e && pendingTasks == p && runningTasks == r;
    }
  }

  public static final String CSV_HEADER = "time_ms,target,executors,pending_tasks,running_tasks";

  private final List<Row> rows = new ArrayList<>();

  public void observe(long timeMs, int target, int executors, int pending, int running) {
    if (!rows.isEmpty()) {
      Row last = rows.get(rows.size() - 1);
      if (last.sameState(target, executors, pending, running)) {
        return;
      }
      if (last.timeMs == timeMs) {
        rows.remove(rows.size() - 1);
        if (!rows.isEmpty() && rows.get(rows.size() - 1).sameState(target, executors, pending, running)) {
          return;
        }
      }
    }
    rows.add(new Row(timeMs, target, executors, pending, running));
  }

  public List<Row> rows() {
    return List.copyOf(rows);
  }

  public static void writeCsv(List<Row> rows, Writer out) throws IOException {
    out.write(CSV_HEADER);
    out.write('\n');
    for (Row r : rows) {
      out.write(r.timeMs + "," + r.target + "," + r.executors + "," + r.pendingTasks + "," + r.runningTasks + "\n");
    }
  }
}
