package org.elasticam.sim;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The simulators' figures as a left-aligned text table for people. */
public final class TextTable {

  private TextTable() {}

  /**
   * A header line with the first record's names, then one line per record with its values as
   * {@code cell} prints them; both leave out the names in {@code omit}. Columns are two spaces
   * apart and each line ends in a newline, without trailing spaces.
   */
  public static String of(List<Map<String, Object>> records, Collection<String> omit,
      Function<Object, String> cell) {
    List<List<String>> cells = new ArrayList<>();
    List<String> header = new ArrayList<>(records.get(0).keySet());
    header.removeAll(omit);
    cells.add(header);
    for (Map<String, Object> r : records) {
      cells.add(r.entrySet().stream().filter(e -> !omit.contains(e.getKey()))
          .map(e -> cell.apply(e.getValue())).toList());
    }
    int[] width = new int[header.size()];
    for (List<String> row : cells) {
      for (int i = 0; i < row.size(); i++) {
        width[i] = Math.max(width[i], row.get(i).length());
      }
    }
    StringBuilder out = new StringBuilder();
    for (List<String> row : cells) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.size(); i++) {
        line.append(i == 0 ? "" : "  ").append(row.get(i)).append(" ".repeat(width[i] - row.get(i).length()));
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
    return out.toString();
  }
}
