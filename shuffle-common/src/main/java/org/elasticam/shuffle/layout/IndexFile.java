package org.elasticam.shuffle.layout;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * The index format, version 1, big-endian. A header and one self-checking entry per reduce
 * partition, so that a reader reads exactly the entries it needs (one positional read) and still
 * knows them intact — no whole-file checksum to verify, and a cached copy is checked as it is used:
 *
 * <pre>
 * header, 16 bytes:  magic "EASI" | version u16 (1) | reserved u16 (0) | partitions u32 | CRC32C of the 12 bytes before
 * entry r, 24 bytes: offset u64 | length u64 | CRC32C of the block u32 | CRC32C of (r u32 + the 20 bytes before) u32
 * </pre>
 *
 * The file is exactly {@code 16 + 24 * partitions} bytes.
 */
public final class IndexFile {

  public static final int MAGIC = 0x45415349; // "EASI"
  public static final int VERSION = 1;
  public static final int HEADER_SIZE = 16;
  public static final int ENTRY_SIZE = 24;

  private IndexFile() {}

  public static byte[] encode(List<IndexEntry> entries) {
    ByteBuffer b = ByteBuffer.allocate(HEADER_SIZE + ENTRY_SIZE * entries.size());
    b.putInt(MAGIC).putShort((short) VERSION).putShort((short) 0).putInt(entries.size());
    b.putInt(crc(b.array(), 0, 12, -1));
    for (int r = 0; r < entries.size(); r++) {
      IndexEntry e = entries.get(r);
      int at = b.position();
      b.putLong(e.offset()).putLong(e.length()).putInt(e.crc32c());
      b.putInt(crc(b.array(), at, 20, r));
    }
    return b.array();
  }

  /**
   * Reads the entries of partitions {@code first..last} (inclusive) from an open index.
   *
   * @throws CorruptIndexException when the header, the size or an entry does not check out
   * @throws IndexOutOfBoundsException when {@code last} is past the map's partitions
   */
  public static List<IndexEntry> read(FileChannel index, int first, int last) throws IOException {
    int partitions = readHeader(index);
    checkRange(first, last, partitions);
    ByteBuffer b = ByteBuffer.allocate(ENTRY_SIZE * (last - first + 1));
    readFully(index, b, HEADER_SIZE + (long) ENTRY_SIZE * first);
    return entries(b.array(), 0, first, last);
  }

  /**
   * The entries of partitions {@code first..last} of a whole index file held in memory, checked
   * exactly as {@link #read} checks them.
   */
  public static List<IndexEntry> read(byte[] whole, int first, int last) throws IOException {
    if (whole.length < HEADER_SIZE) {
      throw new CorruptIndexException("index file truncated", new EOFException());
    }
    int partitions = partitions(whole, whole.length);
    checkRange(first, last, partitions);
    return entries(whole, HEADER_SIZE + ENTRY_SIZE * first, first, last);
  }

  /** The partition count, after checking magic, version, header checksum and file size. */
  public static int readHeader(FileChannel index) throws IOException {
    ByteBuffer h = ByteBuffer.allocate(HEADER_SIZE);
    readFully(index, h, 0);
    return partitions(h.array(), index.size());
  }

  /** The partition count from the header at the start of {@code a}, checked against the file's size. */
  private static int partitions(byte[] a, long fileSize) throws CorruptIndexException {
    ByteBuffer h = ByteBuffer.wrap(a, 0, HEADER_SIZE);
    if (h.getInt(0) != MAGIC) {
      throw new CorruptIndexException("not an index file (bad magic)");
    }
    if (crc(a, 0, 12, -1) != h.getInt(12)) {
      throw new CorruptIndexException("index header fails its checksum");
    }
    int version = h.getShort(4) & 0xffff;
    if (version != VERSION) {
      throw new CorruptIndexException("index version " + version + ", this reads " + VERSION);
    }
    long partitions = h.getInt(8) & 0xffffffffL;
    long expected = HEADER_SIZE + ENTRY_SIZE * partitions;
    if (fileSize != expected) {
      throw new CorruptIndexException("index of " + partitions + " partitions has " + fileSize
          + " bytes, not " + expected);
    }
    if (partitions > Integer.MAX_VALUE) {
      throw new CorruptIndexException("index claims " + partitions + " partitions");
    }
    return (int) partitions;
  }

  private static void checkRange(int first, int last, int partitions) {
    if (first < 0 || last < first || last >= partitions) {
      throw new IndexOutOfBoundsException("reduce " + first + "-" + last + " of " + partitions + " partitions");
    }
  }

  /** Entries {@code first..last}, laid out from {@code at} in {@code a}, each checked. */
  private static List<IndexEntry> entries(byte[] a, int at0, int first, int last) throws CorruptIndexException {
    ByteBuffer b = ByteBuffer.wrap(a);
    int count = last - first + 1;
    List<IndexEntry> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int at = at0 + i * ENTRY_SIZE;
      if (crc(a, at, 20, first + i) != b.getInt(at + 20)) {
        throw new CorruptIndexException("index entry " + (first + i) + " fails its checksum");
      }
      try {
        out.add(new IndexEntry(b.getLong(at), b.getLong(at + 8), b.getInt(at + 16)));
      } catch (IllegalArgumentException e) {
        throw new CorruptIndexException("index entry " + (first + i) + ": " + e.getMessage());
      }
    }
    return out;
  }

  private static void readFully(FileChannel ch, ByteBuffer b, long position) throws IOException {
    long at = position;
    while (b.hasRemaining()) {
      int n = ch.read(b, at);
      if (n < 0) {
        throw new CorruptIndexException("index file truncated", new EOFException());
      }
      at += n;
    }
  }

  /** CRC32C of {@code len} bytes, prefixed by the partition number when {@code r >= 0}. */
  private static int crc(byte[] a, int off, int len, int r) {
    Crc32c c = new Crc32c();
    if (r >= 0) {
      c.update(ByteBuffer.allocate(4).putInt(r).array());
    }
    c.update(a, off, len);
    return (int) c.getValue();
  }
}
