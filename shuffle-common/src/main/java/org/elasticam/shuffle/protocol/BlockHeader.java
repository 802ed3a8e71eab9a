package org.elasticam.shuffle.protocol;

import java.nio.ByteBuffer;

/**
 * What precedes each block in a fetch response: map id, reduce id, length and the CRC32C of the
 * block's bytes (from the index, computed when the map task wrote them), big-endian, 20 bytes.
 * The client checks each block against it.
 */
public record BlockHeader(int mapId, int reduceId, long length, int crc32c) {

  public static final int SIZE = 20;

  public BlockHeader {
    if (mapId < 0 || reduceId < 0 || length < 0) {
      throw new IllegalArgumentException("bad block header: map " + mapId + " reduce " + reduceId + " length " + length);
    }
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
}
