package org.elasticam.shuffle.client;

/**
 * A block whose bytes do not match the CRC32C its map task recorded: the disk or the transfer
 * corrupted it. Not retried: the caller decides (re-run the map).
 */
public final class BlockCorruptedException extends FetchException {

  private static final long serialVersionUID = 1L;

  private final int mapId;
  private final int reduceId;

  public BlockCorruptedException(String message, int mapId, int reduceId) {
    super(message, 0, false, null, null);
    this.mapId = mapId;
    this.reduceId = reduceId;
  }

  public int mapId() {
    return mapId;
  }

  public int reduceId() {
    return reduceId;
  }
}
