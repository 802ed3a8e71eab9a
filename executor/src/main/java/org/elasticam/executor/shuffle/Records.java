package org.elasticam.executor.shuffle;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * A record inside a shuffle block: {@code varint(keyLength) varint(valueLength) key value}, with
 * unsigned LEB128 varints. Blocks arrive over the network, so reading trusts nothing: a length
 * past what remains of the block or past {@link #MAX_FIELD_BYTES} is an error, never an allocation.
 */
final class Records {

  /** No key or value is larger: a bigger length is corruption, not data. */
  static final int MAX_FIELD_BYTES = 64 << 20;

  private Records() {}

  static void write(OutputStream out, byte[] key, byte[] value) throws IOException {
    writeVarint(out, key.length);
    writeVarint(out, value.length);
    out.write(key);
    out.write(value);
  }

  static int size(byte[] key, byte[] value) {
    return varintSize(key.length) + varintSize(value.length) + key.length + value.length;
  }

  private static void writeVarint(OutputStream out, int v) throws IOException {
    while ((v & ~0x7f) != 0) {
      out.write((v & 0x7f) | 0x80);
      v >>>= 7;
    }
    out.write(v);
  }

  private static int varintSize(int v) {
    int n = 1;
    while ((v & ~0x7f) != 0) {
      n++;
      v >>>= 7;
    }
    return n;
  }

  static byte[] encode(byte[] key, byte[] value) {
    ByteArrayOutputStream b = new ByteArrayOutputStream(size(key, value));
    try {
      write(b, key, value);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return b.toByteArray();
  }

  /** Reads records from a stream of {@code length} bytes. */
  static final class Reader {
    private final InputStream in;
    private long remaining;
    private byte[] key;
    private byte[] value;

    Reader(InputStream in, long length) {
      this.in = in;
      this.remaining = length;
    }

    /** The next record; false at the end of the block. */
    boolean next() throws IOException {
      if (remaining == 0) {
        return false;
      }
      int k = readVarint();
      int v = readVarint();
      if ((long) k + v > remaining) {
        throw new IOException("a record of " + ((long) k + v) + " bytes where " + remaining + " remain in the block");
      }
      key = readFully(k);
      value = readFully(v);
      return true;
    }

    byte[] key() {
      return key;
    }

    byte[] value() {
      return value;
    }

    private int readVarint() throws IOException {
      int v = 0;
      for (int shift = 0; shift < 35; shift += 7) {
        int b = readByte();
        v |= (b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
          if (v < 0 || v > MAX_FIELD_BYTES) {
            throw new IOException("a record field of " + Integer.toUnsignedString(v) + " bytes");
          }
          return v;
        }
      }
      throw new IOException("a record length longer than five bytes");
    }

    private int readByte() throws IOException {
      if (remaining <= 0) {
        throw new EOFException("the block ends inside a record");
      }
      int b = in.read();
      if (b < 0) {
        throw new EOFException("the block ends early");
      }
      remaining--;
      return b;
    }

    private byte[] readFully(int n) throws IOException {
      byte[] b = in.readNBytes(n);
      if (b.length != n) {
        throw new EOFException("the block ends early");
      }
      remaining -= n;
      return b;
    }
  }
}
