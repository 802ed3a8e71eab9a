package org.elasticam.io;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;
import org.elasticam.api.Counters;
import org.elasticam.api.TaskContext;

/**
 * The lines of a split of a text file. A line ends at {@code \n} (a {@code \r} before it is not part
 * of it) or at the end of the file; a split reads the lines that begin inside it, the last one to
 * its end wherever that is, so the splits of a file read each line once. Lines are bytes
 * ({@link #bytes()}, {@link #length()}: no decoding for jobs that split on ASCII) or UTF-8 text
 * ({@link #current()}). A compressed file (Hadoop's codecs, by suffix) is read whole.
 *
 * <pre>{@code
 * try (TextLines lines = TextLines.open(ctx)) {
 *   while (lines.next()) {
 *     String line = lines.current();
 *   }
 * }
 * }</pre>
 */
public final class TextLines implements RecordReader<String> {

  /** The format of text lines, for code that takes an {@link InputFormat}. */
  public static final InputFormat<String> FORMAT = TextLines::open;

  private static final int BUFFER = 64 * 1024;

  private final InputStream in;
  private final byte[] buffer = new byte[BUFFER];
  private int pos;
  private int limit;
  private boolean eof;
  /** The file offset of buffer[pos] (of the decompressed text, for a compressed file). */
  private long offset;
  private final long end;
  private byte[] line = new byte[256];
  private int length;
  private String text;
  /** Where reading began: bytes read are offset - first. */
  private final long first;
  private long records;
  /** The task whose input counters this reader adds to when closed, or null. */
  private TaskContext counted;

  private TextLines(InputStream in, long offset, long end) {
    this.in = in;
    this.offset = offset;
    this.first = offset;
    this.end = end;
  }

  /**
   * The lines of the task's split ({@link FileSplit#of(TaskContext)}), with the classpath's Hadoop
   * configuration; closing the reader adds the lines and bytes read to the task's
   * {@link Counters#INPUT_RECORDS} and {@link Counters#INPUT_BYTES}.
   */
  public static TextLines open(TaskContext context) throws IOException {
    TextLines lines = open(FileSplit.of(context), new Configuration());
    lines.counted = context;
    return lines;
  }

  public static TextLines open(FileSplit split, Configuration conf) throws IOException {
    Path path = new Path(split.path());
    FileSystem fs = path.getFileSystem(conf);
    CompressionCodec codec = new CompressionCodecFactory(conf).getCodec(path);
    FSDataInputStream raw = fs.open(path);
    try {
      if (codec != null) {
        if (split.start() != 0) {
          throw new IOException("a split of compressed " + path + " starts at " + split.start() + ", not 0");
        }
        return new TextLines(codec.createInputStream(raw), 0, Long.MAX_VALUE);
      }
      if (split.start() == 0) {
        return new TextLines(raw, 0, split.end());
      }
      // The line that the previous split reads to its end is not this split's: start after the
      // first newline at or after start - 1 (a line beginning exactly at start is this split's).
      raw.seek(split.start() - 1);
      TextLines lines = new TextLines(raw, split.start() - 1, split.end());
      lines.skipLine();
      return lines;
    } catch (IOException | RuntimeException e) {
      raw.close();
      throw e;
    }
  }

  @Override
  public boolean next() throws IOException {
    text = null;
    if (offset >= end || !readLine(true)) {
      return false;
    }
    records++;
    return true;
  }

  private void skipLine() throws IOException {
    readLine(false);
  }

  /** Reads through the next newline or the end of the input; false when nothing was left. */
  private boolean readLine(boolean keep) throws IOException {
    length = 0;
    boolean any = false;
    while (true) {
      if (pos == limit && !fill()) {
        if (keep && length > 0 && line[length - 1] == '\r') {
          length--;
        }
        return any;
      }
      any = true;
      int i = pos;
      while (i < limit && buffer[i] != '\n') {
        i++;
      }
      boolean found = i < limit;
      if (keep) {
        append(pos, i - pos);
      }
      int taken = (found ? i + 1 : i) - pos;
      offset += taken;
      pos += taken;
      if (found) {
        if (keep && length > 0 && line[length - 1] == '\r') {
          length--;
        }
        return true;
      }
    }
  }

  private boolean fill() throws IOException {
    if (eof) {
      return false;
    }
    while (true) {
      int n = in.read(buffer, 0, buffer.length);
      if (n < 0) {
        eof = true;
        pos = limit = 0;
        return false;
      }
      if (n > 0) {
        pos = 0;
        limit = n;
        return true;
      }
    }
  }

  private void append(int from, int n) {
    if (length + n > line.length) {
      line = Arrays.copyOf(line, Math.max(line.length * 2, length + n));
    }
    System.arraycopy(buffer, from, line, length, n);
    length += n;
  }

  /** The current line as UTF-8 text, without its line end. */
  @Override
  public String current() {
    if (text == null) {
      text = new String(line, 0, length, StandardCharsets.UTF_8);
    }
    return text;
  }

  /** The current line's bytes: the first {@link #length()} of them; valid until {@link #next()}. */
  public byte[] bytes() {
    return line;
  }

  public int length() {
    return length;
  }

  @Override
  public long bytesRead() {
    return offset - first;
  }

  /** Lines read so far. */
  public long records() {
    return records;
  }

  @Override
  public void close() throws IOException {
    if (counted != null) {
      counted.counter(Counters.INPUT_RECORDS).add(records);
      counted.counter(Counters.INPUT_BYTES).add(bytesRead());
      counted = null;
    }
    in.close();
  }
}
