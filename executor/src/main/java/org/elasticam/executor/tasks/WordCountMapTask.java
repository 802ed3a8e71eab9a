package org.elasticam.executor.tasks;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.elasticam.api.Counters;
import org.elasticam.api.ShuffleOutput;
import org.elasticam.api.Task;
import org.elasticam.api.TaskContext;

/**
 * Counts the words of one split of a text file and writes {@code (word, count)} to the shuffle.
 * A word is a maximal run of bytes that are not ASCII whitespace (space, tab, newline, vertical
 * tab, form feed, carriage return): UTF-8 text splits correctly byte by byte, since no multi-byte
 * character contains an ASCII byte, and any other byte belongs to a word. A split owns the lines
 * that begin inside it; the last one is read to its end even past the split.
 */
public final class WordCountMapTask implements Task {

  /** Distinct words counted in memory before they are written out and counting starts afresh. */
  static final int MAX_DISTINCT_WORDS = 200_000;

  @Override
  public void run(TaskContext context) throws Exception {
    Path path = new Path(context.params().get("path"));
    long start = Long.parseLong(context.params().get("start"));
    long end = start + Long.parseLong(context.params().get("length"));
    ShuffleOutput out = context.shuffleOutput();
    FileSystem fs = path.getFileSystem(new Configuration());
    Counts counts = new Counts(out);
    try (FSDataInputStream raw = fs.open(path)) {
      long pos = start;
      if (start > 0) {
        raw.seek(start - 1);
        InputStream in = new BufferedInputStream(raw, 1);
        int b = in.read();
        // Begin at the first line that starts at or after `start`.
        while (b >= 0 && b != '\n') {
          b = in.read();
          pos++;
        }
        raw.seek(pos);
      }
      count(new BufferedInputStream(raw, 64 * 1024), pos, end, counts, context);
    }
    counts.flush();
  }

  /**
   * Words of the lines that begin before {@code end}, reading from {@code pos}, a line start; the
   * lines and their bytes go to the task's input counters.
   */
  private static void count(InputStream in, long pos, long end, Counts counts, TaskContext context)
      throws IOException, InterruptedException {
    long from = pos;
    long lines = 0;
    boolean inLine = false;
    byte[] word = new byte[256];
    int len = 0;
    boolean lineStartsInSplit = pos < end;
    int b;
    while (lineStartsInSplit && (b = in.read()) >= 0) {
      pos++;
      inLine = b != '\n';
      if (isSpace(b)) {
        if (len > 0) {
          counts.add(word, len);
          len = 0;
        }
        if (b == '\n') {
          lines++;
          lineStartsInSplit = pos < end;
          if (context.isKilled()) {
            throw new InterruptedException("killed");
          }
        }
      } else {
        if (len == word.length) {
          word = Arrays.copyOf(word, len * 2);
        }
        word[len++] = (byte) b;
      }
    }
    if (len > 0) {
      counts.add(word, len);
    }
    context.counter(Counters.INPUT_RECORDS).add(inLine ? lines + 1 : lines);
    context.counter(Counters.INPUT_BYTES).add(pos - from);
  }

  static boolean isSpace(int b) {
    return b == ' ' || b == '\t' || b == '\n' || b == 0x0B || b == '\f' || b == '\r';
  }

  /** Counts per word, written to the shuffle when too many distinct words are held. */
  private static final class Counts {
    private final ShuffleOutput out;
    private final Map<ByteBuffer, long[]> counts = new HashMap<>();

    Counts(ShuffleOutput out) {
      this.out = out;
    }

    void add(byte[] word, int len) throws IOException {
      ByteBuffer probe = ByteBuffer.wrap(word, 0, len);
      long[] c = counts.get(probe);
      if (c == null) {
        counts.put(ByteBuffer.wrap(Arrays.copyOf(word, len)), new long[] {1});
        if (counts.size() >= MAX_DISTINCT_WORDS) {
          flush();
        }
      } else {
        c[0]++;
      }
    }

    void flush() throws IOException {
      for (Map.Entry<ByteBuffer, long[]> e : counts.entrySet()) {
        out.write(e.getKey().array(), WordCountReduceTask.encodeCount(e.getValue()[0]));
      }
      counts.clear();
    }
  }
}
