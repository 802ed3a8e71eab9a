package org.elasticam.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A generated text corpus for wordcount, and the independent count the job's output is checked
 * against: words from a vocabulary with accented, CJK and emoji words and words holding a no-break
 * space (not ASCII whitespace, so part of the word), separated by every kind of ASCII whitespace.
 */
final class Corpus {

  private static final String[] VOCABULARY = buildVocabulary();
  private static final String[] SEPARATORS = {" ", " ", " ", "  ", "\t", "\n", "\r\n", "\u000B", "\f", " \n"};

  private Corpus() {}

  private static String[] buildVocabulary() {
    String[] fixed = {"the", "The", "THE", "über", "naïve", "café", "日本語", "数据", "🚀", "a\u00A0b", "x-y", "ümlaut",
        "'quoted'", "end."};
    String[] v = new String[fixed.length + 3000];
    System.arraycopy(fixed, 0, v, 0, fixed.length);
    Random r = new Random(7);
    for (int i = fixed.length; i < v.length; i++) {
      int len = 1 + r.nextInt(12);
      StringBuilder b = new StringBuilder();
      for (int j = 0; j < len; j++) {
        b.append((char) ('a' + r.nextInt(26)));
      }
      v[i] = b.toString();
    }
    return v;
  }

  /** Writes {@code files} files of about {@code bytesEach} bytes under {@code dir}, plus a hidden file the job must skip. */
  static void write(FileSystem fs, Path dir, int files, int bytesEach, long seed) throws IOException {
    Random r = new Random(seed);
    for (int f = 0; f < files; f++) {
      try (OutputStream out = fs.create(new Path(dir, "text-" + f + ".txt"))) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(bytesEach + 64);
        while (buf.size() < bytesEach) {
          // Skewed towards the first words, as text is.
          int w = (int) Math.min(VOCABULARY.length - 1, Math.abs(r.nextGaussian()) * 400);
          buf.writeBytes(VOCABULARY[w].getBytes(StandardCharsets.UTF_8));
          buf.writeBytes(SEPARATORS[r.nextInt(SEPARATORS.length)].getBytes(StandardCharsets.UTF_8));
        }
        out.write(buf.toByteArray());
      }
    }
    try (OutputStream out = fs.create(new Path(dir, "_SKIPPED"))) {
      out.write("not counted\n".getBytes(StandardCharsets.UTF_8));
    }
  }

  /** The count of every word in the visible files under {@code dir}, by splitting on ASCII whitespace. */
  static Map<String, Long> count(FileSystem fs, Path dir) throws IOException {
    Map<String, Long> counts = new HashMap<>();
    for (FileStatus f : fs.listStatus(dir)) {
      String name = f.getPath().getName();
      if (name.startsWith("_") || name.startsWith(".")) {
        continue;
      }
      for (String w : read(fs, f.getPath()).split("[ \\t\\n\\u000B\\f\\r]+")) {
        if (!w.isEmpty()) {
          counts.merge(w, 1L, Long::sum);
        }
      }
    }
    return counts;
  }

  /**
   * The job's output: every {@code part-*} file's {@code word<TAB>count} lines; each part sorted by
   * the words' bytes; beside them only the committed job's {@code _SUCCESS}.
   */
  static Map<String, Long> output(FileSystem fs, Path dir, int reducers) throws IOException {
    Map<String, Long> out = new TreeMap<>();
    for (int r = 0; r < reducers; r++) {
      Path part = new Path(dir, String.format("part-%05d", r));
      byte[] previous = null;
      for (String line : read(fs, part).split("\n")) {
        if (line.isEmpty()) {
          continue;
        }
        int tab = line.lastIndexOf('\t');
        String word = line.substring(0, tab);
        byte[] bytes = word.getBytes(StandardCharsets.UTF_8);
        if (previous != null && Arrays.compareUnsigned(previous, bytes) >= 0) {
          throw new AssertionError(part + " is not in byte order of the words at '" + word + "'");
        }
        previous = bytes;
        if (out.put(word, Long.parseLong(line.substring(tab + 1))) != null) {
          throw new AssertionError("'" + word + "' is counted in more than one line");
        }
      }
    }
    boolean committed = false;
    for (FileStatus f : fs.listStatus(dir)) {
      committed |= f.getPath().getName().equals("_SUCCESS");
      if (!f.getPath().getName().startsWith("part-") && !f.getPath().getName().equals("_SUCCESS")) {
        throw new AssertionError("unexpected file in the output: " + f.getPath());
      }
    }
    if (!committed) {
      throw new AssertionError("no _SUCCESS in " + dir + ": the job's output was not committed");
    }
    return out;
  }

  private static String read(FileSystem fs, Path p) throws IOException {
    try (InputStream in = fs.open(p)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
