package org.elasticam.io;

import java.io.BufferedWriter;
import java.io.FilterOutputStream;
import java.io.FilterWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.elasticam.api.Counter;
import org.elasticam.api.Counters;
import org.elasticam.api.TaskContext;

/**
 * Files a task writes into its attempt's output directory ({@link TaskContext#attemptOutputDir()}),
 * which the runtime commits: the task only writes and closes them. Closing a file adds its bytes
 * to the task's {@link Counters#OUTPUT_BYTES}, and a text file's lines to
 * {@link Counters#OUTPUT_RECORDS}.
 *
 * <pre>{@code
 * try (Writer out = OutputFiles.text(ctx)) {   // part-00003 for task 3
 *   out.write("a,4\n");
 * }
 * }</pre>
 */
public final class OutputFiles {

  private OutputFiles() {}

  /** {@code part-NNNNN} for the task's partition, as MapReduce and Spark name their parts. */
  public static String partName(TaskContext context) {
    return String.format("part-%05d", context.partition());
  }

  /**
   * A new file {@code name} (a relative path: directories are created) in the attempt's output directory.
   *
   * @throws IllegalStateException when the task's stage declares no output
   */
  public static OutputStream create(TaskContext context, String name) throws IOException {
    Path file = new Path(new Path(context.attemptOutputDir()), name);
    if (new Path(name).isAbsolute() || name.startsWith("..") || name.contains("/../")) {
      throw new IllegalArgumentException("an output file's name must stay inside the output directory: " + name);
    }
    FileSystem fs = file.getFileSystem(new Configuration());
    Counter bytes = context.counter(Counters.OUTPUT_BYTES);
    FSDataOutputStream stream = fs.create(file, false);
    // The stream knows its own position: its bytes, counted when it is closed.
    return new FilterOutputStream(stream) {
      private boolean closed;

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
      }

      @Override
      public void close() throws IOException {
        if (!closed) {
          closed = true;
          bytes.add(stream.getPos());
        }
        super.close();
      }
    };
  }

  /** A UTF-8 text file {@link #partName} in the attempt's output directory, buffered. */
  public static Writer text(TaskContext context) throws IOException {
    return text(context, partName(context));
  }

  public static Writer text(TaskContext context, String name) throws IOException {
    Counter lines = context.counter(Counters.OUTPUT_RECORDS);
    Writer file = new BufferedWriter(new OutputStreamWriter(create(context, name), StandardCharsets.UTF_8), 64 * 1024);
    return new FilterWriter(file) {
      private long newlines;
      private boolean closed;

      @Override
      public void write(int c) throws IOException {
        out.write(c);
        newlines += c == '\n' ? 1 : 0;
      }

      @Override
      public void write(char[] cbuf, int off, int len) throws IOException {
        out.write(cbuf, off, len);
        for (int i = off; i < off + len; i++) {
          newlines += cbuf[i] == '\n' ? 1 : 0;
        }
      }

      @Override
      public void write(String s, int off, int len) throws IOException {
        out.write(s, off, len);
        for (int i = off; i < off + len; i++) {
          newlines += s.charAt(i) == '\n' ? 1 : 0;
        }
      }

      @Override
      public void close() throws IOException {
        if (!closed) {
          closed = true;
          lines.add(newlines);
        }
        super.close();
      }
    };
  }
}
