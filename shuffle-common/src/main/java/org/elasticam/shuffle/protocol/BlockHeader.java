package org.elasticam.shuffle.protocol;

import java.nio.ByteBuffer;

/**
 * What precedes each block in a fetch response: map id, reduce id, length and the CRC32C of the
 * block's bytes (from the index, computed when the map task wrote them), big-endian, 20 bytes.
 * The client checks each block against it.
 */
public final class BlockHeader {

  public static final int SIZE = 20;

  private final int mapId;
  private final int reduceId;
  private final long length;
  private final int crc32c;

  public BlockHeader(int mapId, int reduceId, long length, int crc32c) {
    if (mapId < 0 || reduceId < 0 || length < 0) {
      throw new IllegalArgumentException("bad block header: map " + mapId + " reduce " + reduceId + " length " + length);
    }
    this.mapId = mapId;
    this.reduceId = reduceId;
    this.length = length;
    this.crc32c = crc32c;
  }

  public int mapId() {
    return mapId;
  }

  public int reduceId() {
    return reduceId;
  }

  public long length() {
    return length;
  }

  public int crc32c() {
    return crc32c;
  }

  public void writeTo(ByteBuffer out) {
    out.putInt(mapId).putInt(reduceId).putLong(length).putInt(crc32c);
  }

  public byte[] toBytes() {
    ByteBuffer b = ByteBuffer.allocate(SIZE);
    writeTo(b);
    return b.array();
  }

  /** @throws IllegalArgumentException when the fields are out of range */
  public static BlockHeader readFrom(ByteBuffer in) {
    return new BlockHeader(in.getInt(), in.getInt(), in.getLong(), in.getInt());
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof BlockHeader)) {
      return false;
    }
    BlockHeader other = (BlockHeader) o;
    return mapId == other.mapId && reduceId == other.reduceId && length == other.length && crc32c == other.crc32c;
  }

  @Override
  public int hashCode() {
    int h = Integer.hashCode(mapId);
    h = 31 * h + Integer.hashCode(reduceId);
    h = 31 * h + Long.hashCode(length);
    return 31 * h + Integer.hashCode(crc32c);
  }

  @Override
  public String toString() {
    return "BlockHeader[mapId=" + mapId + ", reduceId=" + reduceId + ", length=" + length + ", crc32c=" + crc32c + "]";
  }
}
