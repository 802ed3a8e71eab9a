package org.elasticam.shuffle.layout;

/** Where reduce partition {@code r}'s block sits in a map's data file, and its CRC32C. */
public record IndexEntry(long offset, long length, int crc32c) {

  public IndexEntry {
    if (offset < 0 || length < 0 || offset + length < 0) {
      throw new IllegalArgumentException("bad index entry: offset " + offset + ", length " + length);
    }
  }

  public long end() {
    return offset + length;
  }
}
