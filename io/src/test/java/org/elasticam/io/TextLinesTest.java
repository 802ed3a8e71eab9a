package org.elasticam.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TextLinesTest {

  @TempDir
  Path dir;

  private final Configuration conf = new Configuration();

  @Test
  void splitsAtEveryOffsetReadEachLineOnceWhateverTheLineEnds() throws IOException {
    String text = "alpha\r\n\nbeta gamma\n\r\nd\nlast without newline";
    Path f = write("a.txt", text);
    List<String> whole = read(new FileSplit(f.toUri().toString(), 0, text.length()));
    assertEquals(List.of("alpha", "", "beta gamma", "", "d", "last without newline"), whole);
    for (int cut = 0; cut <= text.length(); cut++) {
      List<String> both = new ArrayList<>(read(new FileSplit(f.toUri().toString(), 0, cut)));
      both.addAll(read(new FileSplit(f.toUri().toString(), cut, text.length() - cut)));
      assertEquals(whole, both, "split at " + cut);
    }
  }

  @Test
  void manySplitsOfSeededTextReadEveryLineExactlyOnce() throws IOException {
    Random r = new Random(42);
    StringBuilder text = new StringBuilder();
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      // Lines longer than the reader's buffer too.
      String line = "l" + i + "-" + "x".repeat(r.nextInt(100) == 0 ? 70_000 + r.nextInt(10) : r.nextInt(40));
      lines.add(line);
      text.append(line).append(r.nextBoolean() ? "\n" : "\r\n");
    }
    Path f = write("b.txt", text.toString());
    long len = Files.size(f);
    for (long size : new long[] {1_000, 4096, 65_536, 65_537, 1_000_000, len}) {
      List<String> all = new ArrayList<>();
      for (long start = 0; start < len; start += size) {
        all.addAll(read(new FileSplit(f.toUri().toString(), start, Math.min(size, len - start))));
      }
      assertEquals(lines, all, "splits of " + size + " bytes");
    }
  }

  @Test
  void aCompressedFileIsReadWholeAsOneSplit() throws IOException {
    Path f = dir.resolve("c.txt.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(f))) {
      out.write("one\ntwo\nthree\n".getBytes(StandardCharsets.UTF_8));
    }
    assertEquals(List.of("one", "two", "three"), read(new FileSplit(f.toUri().toString(), 0, Files.size(f))));
  }

  @Test
  void bytesAreTheLineWithoutItsEndAndTextIsUtf8() throws IOException {
    Path f = write("d.txt", "héllo wörld\r\n");
    try (TextLines lines = TextLines.open(new FileSplit(f.toUri().toString(), 0, Files.size(f)), conf)) {
      assertEquals(true, lines.next());
      assertEquals("héllo wörld".getBytes(StandardCharsets.UTF_8).length, lines.length());
      assertEquals("héllo wörld", lines.current());
      assertFalse(lines.next());
      assertEquals(Files.size(f), lines.bytesRead());
    }
  }

  private List<String> read(FileSplit split) throws IOException {
    List<String> out = new ArrayList<>();
    try (RecordReader<String> lines = TextLines.FORMAT.open(split, conf)) {
      while (lines.next()) {
        out.add(lines.current());
      }
    }
    return out;
  }

  private Path write(String name, String text) throws IOException {
    Path f = dir.resolve(name);
    Files.writeString(f, text, StandardCharsets.UTF_8);
    return f;
  }
}
