package org.elasticam.examples;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.elasticam.api.*;
import org.elasticam.io.*;

/**
 * An inner join of two CSV inputs on their first column: {@code OUTPUT LEFT RIGHT}. For each key in
 * both, {@code OUTPUT/part-NNNNN} holds a line {@code key,left,right} for every pair of a left and a
 * right line of that key ({@code left} and {@code right} are the rest of each line). Both inputs are
 * shuffled by key into the same partitions; a reducer walks its two sorted partitions side by
 * side, holding one key's right-hand lines at a time.
 */
public final class Join implements Job {

  static final int PARTITIONS = 4;

  public List<Stage> stages(String[] args) throws IOException {
    if (args.length != 3) {
      throw new IllegalArgumentException("usage: Join OUTPUT LEFT RIGHT");
    }
    return List.of(
        Stage.builder(0, "left", Parse.class).writesShuffle(PARTITIONS).tasks(FileInputs.of(args[1]).taskSpecs()).build(),
        Stage.builder(1, "right", Parse.class).writesShuffle(PARTITIONS).tasks(FileInputs.of(args[2]).taskSpecs())
            .build(),
        Stage.builder(2, "join", Match.class).parents(0, 1).tasks(PARTITIONS).writesOutput(args[0]).build());
  }

  /** {@code key,rest} to the shuffle. */
  public static final class Parse implements Task {
    public void run(TaskContext ctx) throws Exception {
      TypedShuffleOutput<String, String> out = TypedShuffleOutput.of(ctx.shuffleOutput(), Serdes.STRING, Serdes.STRING);
      try (TextLines lines = TextLines.open(ctx)) {
        while (lines.next()) {
          String line = lines.current();
          int comma = line.indexOf(',');
          if (comma > 0) {
            out.write(line.substring(0, comma), line.substring(comma + 1));
          }
        }
      }
    }
  }

  public static final class Match implements Task {
    public void run(TaskContext ctx) throws Exception {
      KeyGroups<String, String> left = KeyGroups.of(ctx.shuffleInput(0), Serdes.STRING, Serdes.STRING);
      KeyGroups<String, String> right = KeyGroups.of(ctx.shuffleInput(1), Serdes.STRING, Serdes.STRING);
      try (Writer out = OutputFiles.text(ctx)) {
        boolean hasLeft = left.next();
        boolean hasRight = right.next();
        while (hasLeft && hasRight) {
          int c = compare(left.key(), right.key());
          if (c < 0) {
            hasLeft = left.next();
          } else if (c > 0) {
            hasRight = right.next();
          } else {
            List<String> rights = new ArrayList<>();
            right.values().forEach(rights::add);
            for (String l : left.values()) {
              for (String r : rights) {
                out.write(left.key() + "," + l + "," + r + "\n");
              }
            }
            hasLeft = left.next();
            hasRight = right.next();
          }
        }
      }
    }

    /** The shuffle's order of string keys: their UTF-8 bytes, unsigned (code point order). */
    static int compare(String a, String b) {
      return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }
  }
}
