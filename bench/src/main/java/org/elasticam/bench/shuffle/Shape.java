package org.elasticam.bench.shuffle;

/**
 * One block size's dataset and request shape: {@code maps} map outputs of {@code reduces}
 * partitions, every block exactly {@code blockSize} bytes, and {@code mapsPerRequest} consecutive
 * maps of one reduce asked for in each request (the same blocks from every server).
 *
 * <p>Every dataset holds 500-512 MiB. Small blocks are asked for 20 at a time, MapReduce's own
 * {@code MAX_MAPS_AT_ONCE}; large ones fewer, so that one response stays at most 16 MiB and 256
 * clients' requests do not all wait on a single server-wide memory bound.
 */
public record Shape(int index, int blockSize, int maps, int reduces, int mapsPerRequest) {

  public static final Shape KIB_4 = new Shape(1, 4 << 10, 320, 400, 20);
  public static final Shape KIB_64 = new Shape(2, 64 << 10, 80, 100, 20);
  public static final Shape MIB_1 = new Shape(3, 1 << 20, 32, 16, 4);
  public static final Shape MIB_16 = new Shape(4, 16 << 20, 8, 4, 1);

  public Shape {
    if (maps % mapsPerRequest != 0) {
      throw new IllegalArgumentException("requests tile the maps: " + maps + " % " + mapsPerRequest);
    }
  }

  /** The shape for a block size written as 4k, 64k, 1m or 16m. */
  public static Shape parse(String text) {
    return switch (text.toLowerCase(java.util.Locale.ROOT)) {
      case "4k" -> KIB_4;
      case "64k" -> KIB_64;
      case "1m" -> MIB_1;
      case "16m" -> MIB_16;
      default -> throw new IllegalArgumentException("block size is one of 4k, 64k, 1m, 16m: " + text);
    };
  }

  /** 4 KiB, 64 KiB, 1 MiB, 16 MiB. */
  public String label() {
    return blockSize >= 1 << 20 ? (blockSize >> 20) + " MiB" : (blockSize >> 10) + " KiB";
  }

  public String key() {
    return blockSize >= 1 << 20 ? (blockSize >> 20) + "m" : (blockSize >> 10) + "k";
  }

  public long totalBytes() {
    return (long) blockSize * maps * reduces;
  }

  public long responseBytes() {
    return (long) blockSize * mapsPerRequest;
  }

  /** The application (and, for MapReduce, job) this dataset belongs to. */
  public String appId() {
    return String.format("application_%d_%04d", BenchApp.CLUSTER_TIMESTAMP, index);
  }

  /**
   * The {@code j}-th request of client {@code c}: a reduce and the first of {@code mapsPerRequest}
   * maps. Clients walk the blocks in different orders, so concurrent requests mostly read
   * different blocks, and each client eventually reads all of them.
   */
  public Request request(int c, long j) {
    int windows = maps / mapsPerRequest;
    long n = j + (long) c * 7919;
    int reduce = (int) Math.floorMod(n * 31 + c, (long) reduces);
    int window = (int) Math.floorMod(n / reduces + c, (long) windows);
    return new Request(reduce, window * mapsPerRequest, mapsPerRequest);
  }

  /** One request: maps {@code firstMap .. firstMap + count - 1} of reduce {@code reduce}. */
  public record Request(int reduce, int firstMap, int count) {}
}
