package org.elasticam.shuffle.layout;

/** Where reduce partition {@code r}'s block sits in a map's data file, and its CRC32C. */
public final class IndexEntry {

  private final long offset;
  private final long length;
  private final int crc32c;

  public IndexEntry(long offset, long length, int crc32c) {
    if (offset < 0 || length < 0 || offset + length < 0) {
      throw new IllegalArgumentException("bad index entry: offset " + offset + ", length " + length);
    }
    this.offset = offset;
    this.length = length;
    this.crc32c = crc32c;
  }

  public long offset() {
    return offset;
  }

  public long length() {
    return length;
  }

  public int crc32c() {
    return crc32c;
  }

  public long end() {
    return offset + length;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof IndexEntry)) {
      return false;
    }
    IndexEntry other = (IndexEntry) o;
    return offset == other.offset && length == other.length && crc32c == other.crc32c;
  }

  @Override
  public int hashCode() {
    int h = Long.hashCode(offset);
    h = 31 * h + Long.hashCode(length);
    return 31 * h + Integer.hashCode(crc32c);
  }

  @Override
  public String toString() {
    return "IndexEntry[offset=" + offset + ", length=" + length + ", crc32c=" + crc32c + "]";
  }
}
