package org.elasticam.shuffle.client;

import java.util.Objects;

/** One verified block: its bytes matched the checksum its map task recorded. */
public final class FetchedBlock {

  private final int mapId;
  private final int reduceId;
  private final byte[] data;

  public FetchedBlock(int mapId, int reduceId, byte[] data) {
    this.mapId = mapId;
    this.reduceId = reduceId;
    this.data = data;
  }

  public int mapId() {
    return mapId;
  }

  public int reduceId() {
    return reduceId;
  }

  public byte[] data() {
    return data;
  }

  @Override
  public String toString() {
    return "FetchedBlock[map " + mapId + ", reduce " + reduceId + ", " + data.length + " bytes]";
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof FetchedBlock)) {
      return false;
    }
    FetchedBlock other = (FetchedBlock) o;
    return mapId == other.mapId && reduceId == other.reduceId && Objects.equals(data, other.data);
  }

  @Override
  public int hashCode() {
    int h = Integer.hashCode(mapId);
    h = 31 * h + Integer.hashCode(reduceId);
    return 31 * h + Objects.hashCode(data);
  }
}
