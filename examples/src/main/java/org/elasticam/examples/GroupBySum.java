package org.elasticam.examples;

import java.io.IOException;
import java.io.Writer;
import java.util.List;
import org.elasticam.api.*;
import org.elasticam.io.*;

/**
 * Sums a column per key: {@code OUTPUT INPUT...} over CSV lines of {@code key,amount};
 * {@code OUTPUT/part-NNNNN} holds {@code key,sum} lines, each reducer's keys in order.
 */
public final class GroupBySum implements Job {

  public List<Stage> stages(String[] args) throws IOException {
    List<String> inputs = List.of(args).subList(1, args.length);
    return List.of(
        Stage.builder(0, "parse", Parse.class).writesShuffle(4).tasks(FileInputs.of(inputs).taskSpecs()).build(),
        Stage.builder(1, "sum", Sum.class).parents(0).tasks(4).writesOutput(args[0]).build());
  }

  public static final class Parse implements Task {
    public void run(TaskContext ctx) throws Exception {
      TypedShuffleOutput<String, Long> out = TypedShuffleOutput.of(ctx.shuffleOutput(), Serdes.STRING, Serdes.LONG);
      try (TextLines lines = TextLines.open(ctx)) {
        while (lines.next()) {
          String[] kv = lines.current().split(",");
          out.write(kv[0], Long.parseLong(kv[1].trim()));
        }
      }
    }
  }

  public static final class Sum implements Task {
    public void run(TaskContext ctx) throws Exception {
      KeyGroups<String, Long> groups = KeyGroups.of(ctx.shuffleInput(0), Serdes.STRING, Serdes.LONG);
      try (Writer out = OutputFiles.text(ctx)) {
        while (groups.next()) {
          long sum = 0;
          for (long n : groups.values()) {
            sum += n;
          }
          out.write(groups.key() + "," + sum + "\n");
        }
      }
    }
  }
}
