package org.elasticam.shuffle.protocol;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An executor tells its node's service where it writes shuffle output: its application-level
 * local dirs ({@code LOCAL_DIRS}), in order, as the layout hashes over them. The service accepts
 * only dirs inside that application's own NodeManager app-cache dirs.
 */
public record RegisterRequest(String appId, String executorId, List<String> dirs) {

  private static final Set<String> KEYS = Set.of(ShuffleProtocol.APP, ShuffleProtocol.EXEC, ShuffleProtocol.DIRS,
      ShuffleProtocol.TS);

  public RegisterRequest {
    ShuffleIds.requireAppId(appId);
    ShuffleIds.requireExecutorId(executorId);
    dirs = List.copyOf(dirs);
    if (dirs.isEmpty() || dirs.size() > ShuffleProtocol.MAX_DIRS) {
      throw new IllegalArgumentException("an executor registers 1 to " + ShuffleProtocol.MAX_DIRS + " dirs, not "
          + dirs.size());
    }
    for (String d : dirs) {
      if (d.isEmpty() || d.charAt(0) != '/' || d.indexOf(',') >= 0 || d.indexOf('\0') >= 0 || d.length() > 1024) {
        throw new IllegalArgumentException("a local dir is an absolute path without commas: " + ShuffleIds.shorten(d));
      }
    }
  }

  public Map<String, String> params(long timestampMs) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put(ShuffleProtocol.APP, appId);
    p.put(ShuffleProtocol.EXEC, executorId);
    p.put(ShuffleProtocol.DIRS, String.join(",", dirs));
    p.put(ShuffleProtocol.TS, Long.toString(timestampMs));
    return p;
  }

  /** @throws IllegalArgumentException when malformed (the four parameters, nothing else) */
  public static RegisterRequest fromParams(Map<String, String> params) {
    FetchRequest.requireExactly(params, KEYS);
    return new RegisterRequest(params.get(ShuffleProtocol.APP), params.get(ShuffleProtocol.EXEC),
        List.of(params.get(ShuffleProtocol.DIRS).split(",", -1)));
  }
}
