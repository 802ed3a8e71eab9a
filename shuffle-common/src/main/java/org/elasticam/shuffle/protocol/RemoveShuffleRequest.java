package org.elasticam.shuffle.protocol;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The driver tells a node's service that no stage will read a shuffle again: the service deletes
 * that shuffle's files under every dir the application's executors registered on the node, so a
 * long-running application does not fill the node's disks with output nobody reads.
 */
public final class RemoveShuffleRequest {

  private static final Set<String> KEYS = Collections.unmodifiableSet(new LinkedHashSet<>(Arrays.asList(
      ShuffleProtocol.APP, ShuffleProtocol.SHUFFLE, ShuffleProtocol.TS)));

  private final String appId;
  private final int shuffleId;

  public RemoveShuffleRequest(String appId, int shuffleId) {
    ShuffleIds.requireAppId(appId);
    if (shuffleId < 0) {
      throw new IllegalArgumentException("bad shuffle: " + shuffleId);
    }
    this.appId = appId;
    this.shuffleId = shuffleId;
  }

  public String appId() {
    return appId;
  }

  public int shuffleId() {
    return shuffleId;
  }

  public Map<String, String> params(long timestampMs) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put(ShuffleProtocol.APP, appId);
    p.put(ShuffleProtocol.SHUFFLE, Integer.toString(shuffleId));
    p.put(ShuffleProtocol.TS, Long.toString(timestampMs));
    return p;
  }

  /** @throws IllegalArgumentException when malformed (the three parameters, nothing else) */
  public static RemoveShuffleRequest fromParams(Map<String, String> params) {
    FetchRequest.requireExactly(params, KEYS);
    return new RemoveShuffleRequest(params.get(ShuffleProtocol.APP),
        ShuffleIds.parseId("shuffle", params.get(ShuffleProtocol.SHUFFLE)));
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RemoveShuffleRequest)) {
      return false;
    }
    RemoveShuffleRequest other = (RemoveShuffleRequest) o;
    return appId.equals(other.appId) && shuffleId == other.shuffleId;
  }

  @Override
  public int hashCode() {
    return Objects.hash(appId, shuffleId);
  }

  @Override
  public String toString() {
    return "RemoveShuffleRequest[appId=" + appId + ", shuffleId=" + shuffleId + "]";
  }
}
