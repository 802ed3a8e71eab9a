package org.elasticam.examples;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.elasticam.api.Counter;
import org.elasticam.api.Counters;
import org.elasticam.api.Job;
import org.elasticam.api.KeyGroups;
import org.elasticam.api.Serdes;
import org.elasticam.api.Stage;
import org.elasticam.api.Task;
import org.elasticam.api.TaskContext;
import org.elasticam.api.TypedShuffleOutput;
import org.elasticam.io.FileInputs;
import org.elasticam.io.OutputFiles;
import org.elasticam.io.TextLines;

/**
 * Counts words: {@code INPUT OUTPUT [REDUCERS]}. One map task per block of the input's files, on
 * the block's hosts; {@code OUTPUT/part-NNNNN} holds {@code word<TAB>count} lines, each reducer's
 * words in byte order. A word is a maximal run of bytes that are not ASCII whitespace (UTF-8 text
 * splits right byte by byte: no multi-byte character holds an ASCII byte). The built-in
 * {@code wordcount} runs this job.
 */
public final class WordCount implements Job {

  @Override
  public List<Stage> stages(String[] args) throws IOException {
    if (args.length < 2 || args.length > 3) {
      throw new IllegalArgumentException("usage: WordCount INPUT OUTPUT [REDUCERS]");
    }
    return stages(args[0], args[1], args.length > 2 ? Integer.parseInt(args[2]) : 2);
  }

  public static List<Stage> stages(String input, String output, int reducers) throws IOException {
    return List.of(
        Stage.builder(0, "wordcount map", Count.class).writesShuffle(reducers)
            .tasks(FileInputs.of(input).taskSpecs()).build(),
        Stage.builder(1, "wordcount reduce", Sum.class).parents(0).tasks(reducers).writesOutput(output).build());
  }

  /** Counts the words of its split in memory, written out whenever too many distinct ones are held. */
  public static final class Count implements Task {

    static final int MAX_DISTINCT_WORDS = 200_000;

    @Override
    public void run(TaskContext ctx) throws Exception {
      TypedShuffleOutput<byte[], Long> out = TypedShuffleOutput.of(ctx.shuffleOutput(), Serdes.BYTES, Serdes.LONG);
      Map<ByteBuffer, long[]> counts = new HashMap<>();
      try (TextLines lines = TextLines.open(ctx)) {
        while (lines.next() && !ctx.isKilled()) {
          byte[] b = lines.bytes();
          int n = lines.length();
          for (int i = 0; i < n; i++) {
            int start = i;
            while (i < n && !isSpace(b[i])) {
              i++;
            }
            if (i > start) {
              counts.computeIfAbsent(ByteBuffer.wrap(Arrays.copyOfRange(b, start, i)), w -> new long[1])[0]++;
            }
          }
          if (counts.size() >= MAX_DISTINCT_WORDS) {
            flush(counts, out);
          }
        }
      }
      flush(counts, out);
    }

    private static void flush(Map<ByteBuffer, long[]> counts, TypedShuffleOutput<byte[], Long> out)
        throws IOException {
      for (Map.Entry<ByteBuffer, long[]> e : counts.entrySet()) {
        out.write(e.getKey().array(), e.getValue()[0]);
      }
      counts.clear();
    }

    static boolean isSpace(byte b) {
      return b == ' ' || b == '\t' || b == '\n' || b == 0x0B || b == '\f' || b == '\r';
    }
  }

  /** Sums each word's counts into {@code part-NNNNN}, one line (an output record) per word. */
  public static final class Sum implements Task {
    @Override
    public void run(TaskContext ctx) throws Exception {
      KeyGroups<byte[], Long> words = KeyGroups.of(ctx.shuffleInput(0), Serdes.BYTES, Serdes.LONG);
      Counter lines = ctx.counter(Counters.OUTPUT_RECORDS);
      try (OutputStream out = new java.io.BufferedOutputStream(OutputFiles.create(ctx, OutputFiles.partName(ctx)),
          64 * 1024)) {
        while (words.next()) {
          long sum = 0;
          for (long c : words.values()) {
            sum += c;
          }
          out.write(words.key());
          out.write('\t');
          out.write(Long.toString(sum).getBytes(StandardCharsets.US_ASCII));
          out.write('\n');
          lines.increment();
        }
      }
    }
  }
}
