package org.elasticam.shuffle.protocol;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One fetch: the blocks (map, reduce) for every map id of {@code maps} and every reduce id of
 * {@code reduces}, written by executor {@code executorId} of application {@code appId} for
 * shuffle {@code shuffleId}. One request reads one executor's registered dirs.
 */
public final class FetchRequest {

  private static final Set<String> KEYS = Collections.unmodifiableSet(new LinkedHashSet<>(Arrays.asList(
      ShuffleProtocol.APP, ShuffleProtocol.EXEC, ShuffleProtocol.SHUFFLE, ShuffleProtocol.REDUCE, ShuffleProtocol.MAPS,
      ShuffleProtocol.TS)));

  private final String appId;
  private final String executorId;
  private final int shuffleId;
  private final ReduceRange reduces;
  private final MapIdSet maps;

  public FetchRequest(String appId, String executorId, int shuffleId, ReduceRange reduces, MapIdSet maps) {
    ShuffleIds.requireAppId(appId);
    ShuffleIds.requireExecutorId(executorId);
    if (shuffleId < 0) {
      throw new IllegalArgumentException("bad shuffle id: " + shuffleId);
    }
    Objects.requireNonNull(reduces, "reduces");
    Objects.requireNonNull(maps, "maps");
    this.appId = appId;
    this.executorId = executorId;
    this.shuffleId = shuffleId;
    this.reduces = reduces;
    this.maps = maps;
  }

  public String appId() {
    return appId;
  }

  public String executorId() {
    return executorId;
  }

  public int shuffleId() {
    return shuffleId;
  }

  public ReduceRange reduces() {
    return reduces;
  }

  public MapIdSet maps() {
    return maps;
  }

  public long blockCount() {
    return maps.size() * reduces.count();
  }

  /** The query parameters, {@code ts} included, in wire order. */
  public Map<String, String> params(long timestampMs) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put(ShuffleProtocol.APP, appId);
    p.put(ShuffleProtocol.EXEC, executorId);
    p.put(ShuffleProtocol.SHUFFLE, Integer.toString(shuffleId));
    p.put(ShuffleProtocol.REDUCE, reduces.encode());
    p.put(ShuffleProtocol.MAPS, maps.encode());
    p.put(ShuffleProtocol.TS, Long.toString(timestampMs));
    return p;
  }

  /**
   * Parses and checks a request's parameters (all six, nothing else).
   *
   * @throws RequestTooLongException when {@code maps} is longer than {@link ShuffleProtocol#MAX_MAPS_CHARS}
   * @throws IllegalArgumentException on anything else malformed, or past the caps
   */
  public static FetchRequest fromParams(Map<String, String> params) {
    requireExactly(params, KEYS);
    String maps = params.get(ShuffleProtocol.MAPS);
    if (maps.length() > ShuffleProtocol.MAX_MAPS_CHARS) {
      throw new RequestTooLongException("map ids take " + maps.length() + " characters; the limit is "
          + ShuffleProtocol.MAX_MAPS_CHARS);
    }
    FetchRequest r = new FetchRequest(params.get(ShuffleProtocol.APP), params.get(ShuffleProtocol.EXEC),
        ShuffleIds.parseId("shuffle", params.get(ShuffleProtocol.SHUFFLE)),
        ReduceRange.decode(params.get(ShuffleProtocol.REDUCE)),
        MapIdSet.decode(maps, ShuffleProtocol.MAX_MAPS_PER_REQUEST));
    if (r.maps.isEmpty()) {
      throw new IllegalArgumentException("no map ids");
    }
    if (r.blockCount() > ShuffleProtocol.MAX_BLOCKS_PER_REQUEST) {
      throw new IllegalArgumentException("more than " + ShuffleProtocol.MAX_BLOCKS_PER_REQUEST + " blocks in one request");
    }
    return r;
  }

  /** The timestamp parameter, checked for shape only. */
  public static long timestamp(Map<String, String> params) {
    String ts = params.get(ShuffleProtocol.TS);
    if (ts == null || ts.isEmpty() || ts.length() > 15 || !ts.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new IllegalArgumentException("bad ts: " + ShuffleIds.shorten(ts));
    }
    return Long.parseLong(ts);
  }

  /**
   * This request as requests within the protocol's caps, in map order: a map id set too long or
   * too large for one request line is split (the reduce range stays whole: it is two numbers).
   */
  public List<FetchRequest> split() {
    int mapsPerRequest = (int) Math.max(1, Math.min(ShuffleProtocol.MAX_MAPS_PER_REQUEST,
        ShuffleProtocol.MAX_BLOCKS_PER_REQUEST / reduces.count()));
    if (reduces.count() > ShuffleProtocol.MAX_BLOCKS_PER_REQUEST) {
      throw new IllegalArgumentException("a reduce range of " + reduces.count() + " partitions exceeds "
          + ShuffleProtocol.MAX_BLOCKS_PER_REQUEST + " blocks even for one map; fetch it in parts");
    }
    List<FetchRequest> out = new ArrayList<>();
    for (MapIdSet part : maps.split(ShuffleProtocol.MAX_MAPS_CHARS, mapsPerRequest)) {
      out.add(new FetchRequest(appId, executorId, shuffleId, reduces, part));
    }
    return out;
  }

  static void requireExactly(Map<String, String> params, Set<String> keys) {
    for (String k : keys) {
      if (!params.containsKey(k)) {
        throw new IllegalArgumentException("missing query parameter " + k);
      }
    }
    for (String k : params.keySet()) {
      if (!keys.contains(k)) {
        throw new IllegalArgumentException("unknown query parameter " + ShuffleIds.shorten(k));
      }
    }
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof FetchRequest)) {
      return false;
    }
    FetchRequest other = (FetchRequest) o;
    return Objects.equals(appId, other.appId) && Objects.equals(executorId, other.executorId)
        && shuffleId == other.shuffleId && Objects.equals(reduces, other.reduces) && Objects.equals(maps, other.maps);
  }

  @Override
  public int hashCode() {
    int h = Objects.hashCode(appId);
    h = 31 * h + Objects.hashCode(executorId);
    h = 31 * h + Integer.hashCode(shuffleId);
    h = 31 * h + Objects.hashCode(reduces);
    return 31 * h + Objects.hashCode(maps);
  }

  @Override
  public String toString() {
    return "FetchRequest[appId=" + appId + ", executorId=" + executorId + ", shuffleId=" + shuffleId
        + ", reduces=" + reduces + ", maps=" + maps + "]";
  }
}
