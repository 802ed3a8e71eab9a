package org.elasticam.shuffle.layout;

import org.elasticam.shuffle.protocol.BlockHeader;

/**
 * Where reduce partition {@code r}'s block sits in a map's data file, and its CRC32C; and whether
 * the file holds the block's fetch-response header just before it ({@link #headerInFile}).
 */
public final class IndexEntry {

  private final long offset;
  private final long length;
  private final int crc32c;
  private final boolean headerInFile;

  /** A block with no header before it in the data file. */
  public IndexEntry(long offset, long length, int crc32c) {
    this(offset, length, crc32c, false);
  }

  /**
   * @param headerInFile the {@link BlockHeader#SIZE} bytes before
   *     {@code offset} are the block's header as a fetch response sends it
   */
  public IndexEntry(long offset, long length, int crc32c, boolean headerInFile) {
    if (offset < 0 || length < 0 || offset + length < 0
        || (headerInFile && offset < BlockHeader.SIZE)) {
      throw new IllegalArgumentException("bad index entry: offset " + offset + ", length " + length
          + (headerInFile ? ", header in the file" : ""));
    }
    this.offset = offset;
    this.length = length;
    this.crc32c = crc32c;
    this.headerInFile = headerInFile;
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

  /** Whether the data file holds this block's fetch-response header just before {@link #offset}. */
  public boolean headerInFile() {
    return headerInFile;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof IndexEntry)) {
      return false;
    }
    IndexEntry other = (IndexEntry) o;
    return offset == other.offset && length == other.length && crc32c == other.crc32c
        && headerInFile == other.headerInFile;
  }

  @Override
  public int hashCode() {
    int h = Long.hashCode(offset);
    h = 31 * h + Long.hashCode(length);
    h = 31 * h + Integer.hashCode(crc32c);
    return 31 * h + Boolean.hashCode(headerInFile);
  }

  @Override
  public String toString() {
    return "IndexEntry[offset=" + offset + ", length=" + length + ", crc32c=" + crc32c
        + (headerInFile ? ", header in file" : "") + "]";
  }
}
