package org.elasticam.examples;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.elasticam.api.*;
import org.elasticam.io.*;

/**
 * Sorts the lines of its input: {@code OUTPUT INPUT [PARTITIONS]}. The parts {@code OUTPUT/part-00000},
 * {@code part-00001}, … read one after another are every input line (repeats kept) in the order of
 * their UTF-8 bytes. The ranges of the parts are cut from a sample: the first lines of each split,
 * read while planning (as MapReduce's split sampler takes them); a sample unlike the rest of the
 * input gives uneven parts, never a wrong order.
 */
public final class TotalSort implements Job {

  static final int SAMPLE_LINES_PER_SPLIT = 1_000;

  public List<Stage> stages(String[] args) throws IOException {
    if (args.length < 2 || args.length > 3) {
      throw new IllegalArgumentException("usage: TotalSort OUTPUT INPUT [PARTITIONS]");
    }
    int partitions = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    List<TaskSpec> splits = FileInputs.of(args[1]).taskSpecs();
    List<byte[]> sample = new ArrayList<>();
    for (TaskSpec split : splits) {
      try (TextLines lines = TextLines.open(FileSplit.of(split.params()), new Configuration())) {
        for (int i = 0; i < SAMPLE_LINES_PER_SPLIT && lines.next(); i++) {
          sample.add(Serdes.STRING.encode(lines.current()));
        }
      }
    }
    return List.of(
        Stage.builder(0, "read", Read.class).tasks(splits).writesShuffle(partitions)
            .partitioner(RangePartitioner.class, RangePartitioner.fromSample(sample, partitions)).build(),
        Stage.builder(1, "write", Write.class).parents(0).tasks(partitions).writesOutput(args[0]).build());
  }

  /** Each line as a key, with no value. */
  public static final class Read implements Task {
    public void run(TaskContext ctx) throws Exception {
      TypedShuffleOutput<String, byte[]> out = TypedShuffleOutput.of(ctx.shuffleOutput(), Serdes.STRING, Serdes.BYTES);
      byte[] none = new byte[0];
      try (TextLines lines = TextLines.open(ctx)) {
        while (lines.next()) {
          out.write(lines.current(), none);
        }
      }
    }
  }

  /** A range's lines, in order, each as often as it was read. */
  public static final class Write implements Task {
    public void run(TaskContext ctx) throws Exception {
      KeyGroups<String, byte[]> lines = KeyGroups.of(ctx.shuffleInput(0), Serdes.STRING, Serdes.BYTES);
      try (Writer out = OutputFiles.text(ctx)) {
        while (lines.next()) {
          for (byte[] ignored : lines.values()) {
            out.write(lines.key() + "\n");
          }
        }
      }
    }
  }
}
