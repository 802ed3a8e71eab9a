package org.elasticam.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineReaderTest {

  private static LineReader reader(String content, int maxLineBytes) {
    return new LineReader(
        new ByteArrayInputStream(content.getBytes(StandardCharsets.UTF_8)), maxLineBytes);
  }

  private static List<String> lines(LineReader reader) throws IOException {
    List<String> lines = new ArrayList<>();
    while (reader.next()) {
      lines.add(reader.number() + ":" + new String(reader.bytes(), 0, reader.length(),
          StandardCharsets.UTF_8));
    }
    return lines;
  }

  @Test
  void splitsAtNewlinesKeepingEmptyLinesAndCarriageReturns() throws IOException {
    assertEquals(List.of("1:a", "2:", "3:b\r", "4:c"), lines(reader("a\n\nb\r\nc", 100)));
  }

  @Test
  void aFinalNewlineDoesNotMakeAnotherLine() throws IOException {
    assertEquals(List.of("1:a"), lines(reader("a\n", 100)));
    assertEquals(List.of(), lines(reader("", 100)));
  }

  @Test
  void blankMeansOnlySpacesTabsAndCarriageReturns() throws IOException {
    LineReader reader = reader(" \t\r\n x\n", 100);

    assertTrue(reader.next());
    assertTrue(reader.isBlank());
    assertTrue(reader.next());
    assertFalse(reader.isBlank());
  }

  @Test
  void aLineAcrossManyReadChunksArrivesWhole() throws IOException {
    String longLine = "x".repeat(200_000);

    assertEquals(List.of("1:" + longLine, "2:y"), lines(reader(longLine + "\ny", 300_000)));
  }

  @Test
  void aLineAtTheBoundIsReadAndOneByteMoreIsRefused() throws IOException {
    assertEquals(List.of("1:12345"), lines(reader("12345\n", 5)));

    LineReader reader = reader("ok\n123456\n", 5);
    assertTrue(reader.next());
    TraceProblem problem = assertThrows(TraceProblem.class, reader::next);
    assertEquals("line is longer than 5 bytes", problem.getMessage());
    assertEquals(2, reader.number());
  }
}
