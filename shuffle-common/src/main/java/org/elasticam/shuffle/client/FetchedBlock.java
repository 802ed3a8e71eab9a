package org.elasticam.shuffle.client;

/** One verified block: its bytes matched the checksum its map task recorded. */
public record FetchedBlock(int mapId, int reduceId, byte[] data) {

  @Override
  public String toString() {
    return "FetchedBlock[map " + mapId + ", reduce " + reduceId + ", " + data.length + " bytes]";
  }
}
