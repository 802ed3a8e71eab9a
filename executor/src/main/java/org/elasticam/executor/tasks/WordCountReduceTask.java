package org.elasticam.executor.tasks;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.elasticam.api.Counter;
import org.elasticam.api.Counters;
import org.elasticam.api.ShuffleInput;
import org.elasticam.api.Task;
import org.elasticam.api.TaskContext;

/**
 * Sums the counts of one partition of the words (stage 0's shuffle) and writes
 * {@code part-NNNNN}: one {@code word<TAB>count} line per word, in byte order of the words. The
 * file is written under a hidden name and renamed into place, so a reader never sees half a part
 * and a re-run replaces it whole; only the attempt the driver lets commit renames (with
 * speculation, a copy and its original both write), and what other attempts left behind is
 * removed once the part is in place.
 */
public final class WordCountReduceTask implements Task {

  static final int MAP_STAGE = 0;

  @Override
  public void run(TaskContext context) throws Exception {
    Path dir = new Path(context.params().get("output"));
    FileSystem fs = dir.getFileSystem(new Configuration());
    String name = String.format("part-%05d", context.partition());
    Path part = new Path(dir, name);
    Path tmp = new Path(dir, "." + name + ".attempt-" + context.attempt() + "-" + context.executorId());
    ShuffleInput in = context.shuffleInput(MAP_STAGE);
    Counter lines = context.counter(Counters.OUTPUT_RECORDS);
    Counter bytes = context.counter(Counters.OUTPUT_BYTES);
    boolean published = false;
    try {
      try (OutputStream out = new BufferedOutputStream(fs.create(tmp, true), 64 * 1024)) {
        byte[] word = null;
        long sum = 0;
        while (in.next()) {
          if (word == null || !Arrays.equals(word, in.key())) {
            if (word != null) {
              bytes.add(writeLine(out, word, sum));
              lines.increment();
            }
            word = in.key().clone();
            sum = 0;
          }
          sum += decodeCount(in.value());
        }
        if (word != null) {
          bytes.add(writeLine(out, word, sum));
          lines.increment();
        }
      }
      if (!context.canCommit()) {
        // A speculative copy or the original publishes this part.
        return;
      }
      fs.delete(part, false);
      if (!fs.rename(tmp, part)) {
        throw new IOException("cannot rename " + tmp + " to " + part);
      }
      published = true;
    } finally {
      if (!published) {
        deleteEvenIfInterrupted(fs, tmp);
      }
    }
    // An earlier attempt killed mid-write (its executor died with it) left its hidden file behind;
    // the part is whole now, so the leftovers of this partition go.
    String stale = "." + name + ".attempt-";
    for (org.apache.hadoop.fs.FileStatus f : fs.listStatus(dir, p -> p.getName().startsWith(stale))) {
      fs.delete(f.getPath(), false);
    }
  }

  /** A killed attempt is interrupted; its file must still go, or it stays in the output dir. */
  private static void deleteEvenIfInterrupted(FileSystem fs, Path p) throws IOException {
    boolean interrupted = Thread.interrupted();
    try {
      fs.delete(p, false);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Writes {@code word\tcount\n}; its length in bytes. */
  private static int writeLine(OutputStream out, byte[] word, long count) throws IOException {
    byte[] n = Long.toString(count).getBytes(StandardCharsets.US_ASCII);
    out.write(word);
    out.write('\t');
    out.write(n);
    out.write('\n');
    return word.length + n.length + 2;
  }

  static byte[] encodeCount(long n) {
    return ByteBuffer.allocate(Long.BYTES).putLong(n).array();
  }

  static long decodeCount(byte[] b) throws IOException {
    if (b.length != Long.BYTES) {
      throw new IOException("a word count of " + b.length + " bytes, not " + Long.BYTES);
    }
    return ByteBuffer.wrap(b).getLong();
  }
}
