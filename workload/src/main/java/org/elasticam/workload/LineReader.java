package org.elasticam.workload;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a byte stream into lines at {@code '\n'} without decoding, refusing any line longer than
 * a bound so that a hostile file cannot make us buffer it whole. A {@code '\r'} before the
 * newline is left in place: JSON treats it as whitespace.
 */
final class LineReader {

  static final int MAX_LINE_BYTES = 64 << 20;

  private static final int CHUNK_BYTES = 64 << 10;

  private final InputStream in;
  private final int maxLineBytes;
  private final byte[] chunk = new byte[CHUNK_BYTES];
  private int chunkPos;
  private int chunkEnd;
  private byte[] line = new byte[8 << 10];
  private int length;
  private long number;

  LineReader(InputStream in, int maxLineBytes) {
    this.in = in;
    this.maxLineBytes = maxLineBytes;
  }

  /**
   * Reads the next line; false at the end of the stream.
   *
   * @throws TraceProblem when the line is longer than the bound
   */
  boolean next() throws IOException {
    length = 0;
    number++;
    boolean sawByte = false;
    while (true) {
      if (chunkPos == chunkEnd && !refill()) {
        if (!sawByte) {
          number--;
        }
        return sawByte;
      }
      sawByte = true;
      int newline = indexOfNewline();
      int end = newline < 0 ? chunkEnd : newline;
      append(chunkPos, end);
      chunkPos = newline < 0 ? chunkEnd : newline + 1;
      if (newline >= 0) {
        return true;
      }
    }
  }

  /** The current line's bytes, valid up to {@link #length()} and until the next call to next. */
  byte[] bytes() {
    return line;
  }

  int length() {
    return length;
  }

  /** The 1-based number of the current line. */
  long number() {
    return number;
  }

  boolean isBlank() {
    for (int i = 0; i < length; i++) {
      byte b = line[i];
      if (b != ' ' && b != '\t' && b != '\r') {
        return false;
      }
    }
    return true;
  }

  private boolean refill() throws IOException {
    int n = in.read(chunk, 0, chunk.length);
    chunkPos = 0;
    chunkEnd = Math.max(n, 0);
    return n > 0;
  }

  private int indexOfNewline() {
    for (int i = chunkPos; i < chunkEnd; i++) {
      if (chunk[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private void append(int from, int to) {
    int n = to - from;
    if (n > maxLineBytes - length) {
      throw new TraceProblem("line is longer than " + describe(maxLineBytes));
    }
    if (length + n > line.length) {
      int grown = (int) Math.min(maxLineBytes, Math.max(2L * line.length, (long) length + n));
      line = Arrays.copyOf(line, grown);
    }
    System.arraycopy(chunk, from, line, length, n);
    length += n;
  }

  private static String describe(int bytes) {
    return bytes % (1 << 20) == 0 ? (bytes >> 20) + " MiB" : bytes + " bytes";
  }
}
