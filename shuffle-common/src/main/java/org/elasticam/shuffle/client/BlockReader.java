package org.elasticam.shuffle.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.elasticam.shuffle.layout.Crc32c;
import org.elasticam.shuffle.protocol.BlockHeader;
import org.elasticam.shuffle.protocol.FetchRequest;

/**
 * Reads a 200 fetch body: for each expected (map, reduce) in request order, a {@link BlockHeader}
 * naming exactly that block, then its bytes, whose CRC32C must match. Anything else is a
 * protocol error; a short body is a connection failure (retried by the caller).
 */
final class BlockReader {

  private BlockReader() {}

  static List<FetchedBlock> read(HttpConnection c, FetchRequest r, long contentLength) throws IOException {
    List<FetchedBlock> out = new ArrayList<>((int) Math.min(r.blockCount(), 1024));
    long[] left = {contentLength};
    byte[] head = new byte[BlockHeader.SIZE];
    for (int mapId : r.maps().toArray()) {
      for (int reduceId = r.reduces().first(); reduceId <= r.reduces().last(); reduceId++) {
        take(left, BlockHeader.SIZE, r);
        c.readFully(head, 0, head.length);
        BlockHeader h = header(head, r);
        if (h.mapId() != mapId || h.reduceId() != reduceId) {
          throw protocolError("expected block (" + mapId + ", " + reduceId + "), got (" + h.mapId() + ", "
              + h.reduceId() + ")", r);
        }
        out.add(new FetchedBlock(mapId, reduceId, body(c, h, left, r)));
      }
    }
    if (left[0] != 0) {
      throw protocolError(left[0] + " bytes after the last block", r);
    }
    return out;
  }

  private static BlockHeader header(byte[] head, FetchRequest r) throws FetchException {
    try {
      return BlockHeader.readFrom(ByteBuffer.wrap(head));
    } catch (IllegalArgumentException e) {
      throw protocolError(e.getMessage(), r);
    }
  }

  private static byte[] body(HttpConnection c, BlockHeader h, long[] left, FetchRequest r) throws IOException {
    if (h.length() > Integer.MAX_VALUE - 8) {
      throw protocolError("block (" + h.mapId() + ", " + h.reduceId() + ") of " + h.length()
          + " bytes is too large to hold in memory", r);
    }
    take(left, h.length(), r);
    byte[] data = new byte[(int) h.length()];
    c.readFully(data, 0, data.length);
    Crc32c crc = new Crc32c();
    crc.update(data);
    if ((int) crc.getValue() != h.crc32c()) {
      throw new BlockCorruptedException("block (" + h.mapId() + ", " + h.reduceId() + ") of shuffle " + r.shuffleId()
          + " from executor " + r.executorId() + " fails its checksum", h.mapId(), h.reduceId());
    }
    return data;
  }

  private static void take(long[] left, long n, FetchRequest r) throws FetchException {
    if (n > left[0]) {
      throw protocolError("blocks overrun the response's Content-Length", r);
    }
    left[0] -= n;
  }

  private static FetchException protocolError(String what, FetchRequest r) {
    return new FetchException("bad response for shuffle " + r.shuffleId() + " of " + r.appId() + ": " + what, 200,
        false, null, null);
  }
}
