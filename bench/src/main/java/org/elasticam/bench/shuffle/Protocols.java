package org.elasticam.bench.shuffle;

import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.io.WritableUtils;
import org.elasticam.shuffle.protocol.BlockHeader;
import org.elasticam.shuffle.protocol.FetchRequest;
import org.elasticam.shuffle.protocol.MapIdSet;
import org.elasticam.shuffle.protocol.QueryString;
import org.elasticam.shuffle.protocol.ReduceRange;
import org.elasticam.shuffle.protocol.RequestSigner;
import org.elasticam.shuffle.protocol.ShuffleProtocol;

/**
 * Each server's request and response framing, over the same {@link Wire}. Every block received is
 * checked against the dataset's manifest (CRC32C of its bytes) and against what its framing says
 * it is (map, reduce, length); the response must end exactly at its Content-Length.
 */
final class Protocols {

  private Protocols() {}

  /** One fetch's outcome: payload bytes (block bytes only) and whether the connection stays open. */
  record Fetched(long bytes, boolean keepAlive) {}

  interface Protocol {
    Fetched fetch(Wire w, Shape.Request r) throws IOException;
  }

  static Protocol of(ServerKind kind, Shape s, int[][] crcs, int port, byte[] key) {
    return switch (kind) {
      case OURS -> new Ours(s, crcs, key);
      case SHUFFLE_HANDLER -> new Hadoop(s, crcs, new HadoopSigning(key, port));
      case SENDFILE -> new Sendfile(s, crcs);
    };
  }

  /** Our protocol: a signed {@code /v1/fetch}; each block framed by a 20-byte {@link BlockHeader}. */
  static final class Ours implements Protocol {
    private final Shape s;
    private final int[][] crcs;
    private final byte[] secret;

    Ours(Shape s, int[][] crcs, byte[] secret) {
      this.s = s;
      this.crcs = crcs;
      this.secret = secret;
    }

    static FetchRequest request(Shape s, Shape.Request r) {
      return new FetchRequest(s.appId(), BenchApp.EXECUTOR_ID, BenchApp.SHUFFLE_ID, ReduceRange.of(r.reduce()),
          MapIdSet.range(r.firstMap(), r.firstMap() + r.count() - 1));
    }

    @Override
    public Fetched fetch(Wire w, Shape.Request r) throws IOException {
      var params = request(s, r).params(System.currentTimeMillis());
      w.get(ShuffleProtocol.FETCH_PATH + "?" + QueryString.format(params),
          ShuffleProtocol.SIGNATURE_HEADER + ": " + RequestSigner.sign(secret, "GET", ShuffleProtocol.FETCH_PATH, params));
      Wire.Head h = ok(w);
      byte[] head = new byte[BlockHeader.SIZE];
      for (int m = r.firstMap(); m < r.firstMap() + r.count(); m++) {
        w.readFully(head);
        BlockHeader b = BlockHeader.readFrom(ByteBuffer.wrap(head));
        expect(b.mapId() == m && b.reduceId() == r.reduce() && b.length() == s.blockSize()
            && b.crc32c() == crcs[m][r.reduce()], "block header " + b + " for (" + m + ", " + r.reduce() + ")");
        checkBlock(w, crcs, m, r.reduce(), s.blockSize());
      }
      return end(w, h, (long) s.blockSize() * r.count());
    }
  }

  /** ShuffleHandler's: a signed {@code /mapOutput}; each block framed by a {@code ShuffleHeader} Writable. */
  static final class Hadoop implements Protocol {
    private final Shape s;
    private final int[][] crcs;
    private final HadoopSigning signing;

    Hadoop(Shape s, int[][] crcs, HadoopSigning signing) {
      this.s = s;
      this.crcs = crcs;
      this.signing = signing;
    }

    @Override
    public Fetched fetch(Wire w, Shape.Request r) throws IOException {
      String target = HadoopSigning.target(s, r);
      String hash = signing.urlHash(target);
      w.get(target, "UrlHash: " + hash, HadoopSigning.NAME_HEADER, HadoopSigning.VERSION_HEADER);
      Wire.Head h = ok(w);
      signing.verifyReply(h.headers().get("replyhash"), hash);
      DataInputStream in = new DataInputStream(w);
      for (int m = r.firstMap(); m < r.firstMap() + r.count(); m++) {
        ShuffleHeaderFields f = ShuffleHeaderFields.read(in);
        expect(f.mapId().equals(BenchApp.attemptId(s, m)) && f.forReduce() == r.reduce()
            && f.compressedLength() == s.blockSize(), "shuffle header " + f + " for (" + m + ", " + r.reduce() + ")");
        checkBlock(w, crcs, m, r.reduce(), s.blockSize());
      }
      return end(w, h, (long) s.blockSize() * r.count());
    }
  }

  /** A {@code ShuffleHeader} as {@code ShuffleHeader.readFields} reads it (its fields are not public). */
  record ShuffleHeaderFields(String mapId, long compressedLength, long uncompressedLength, int forReduce) {
    static ShuffleHeaderFields read(DataInputStream in) throws IOException {
      return new ShuffleHeaderFields(WritableUtils.readStringSafely(in, 1000), WritableUtils.readVLong(in),
          WritableUtils.readVLong(in), WritableUtils.readVInt(in));
    }
  }

  /** The baseline's: blocks back to back, nothing else. */
  static final class Sendfile implements Protocol {
    private final Shape s;
    private final int[][] crcs;

    Sendfile(Shape s, int[][] crcs) {
      this.s = s;
      this.crcs = crcs;
    }

    static String target(Shape s, Shape.Request r) {
      return "/raw?size=" + s.key() + "&reduce=" + r.reduce() + "&map=" + r.firstMap() + "&count=" + r.count();
    }

    @Override
    public Fetched fetch(Wire w, Shape.Request r) throws IOException {
      w.get(target(s, r));
      Wire.Head h = ok(w);
      for (int m = r.firstMap(); m < r.firstMap() + r.count(); m++) {
        checkBlock(w, crcs, m, r.reduce(), s.blockSize());
      }
      return end(w, h, (long) s.blockSize() * r.count());
    }
  }

  private static Wire.Head ok(Wire w) throws IOException {
    Wire.Head h = w.readHead();
    if (h.status() != 200) {
      throw new IOException("HTTP " + h.status() + ": " + (h.contentLength() > 0 ? w.text(h.contentLength()) : ""));
    }
    if (h.contentLength() < 0) {
      throw new IOException("a 200 without Content-Length");
    }
    return h;
  }

  private static void checkBlock(Wire w, int[][] crcs, int map, int reduce, int length) throws IOException {
    int crc = w.crcOf(length);
    expect(crc == crcs[map][reduce], "block (" + map + ", " + reduce + ") fails its checksum");
  }

  private static Fetched end(Wire w, Wire.Head h, long payload) throws IOException {
    expect(w.consumed() == h.contentLength(), "read " + w.consumed() + " bytes of a " + h.contentLength()
        + "-byte response");
    return new Fetched(payload, h.keepAlive());
  }

  private static void expect(boolean ok, String what) throws IOException {
    if (!ok) {
      throw new IOException("bad response: " + what);
    }
  }
}
