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
 * An executor tells its node's service where it writes shuffle output: its application-level
 * local dirs ({@code LOCAL_DIRS}), in order, as the layout hashes over them. The service accepts
 * only dirs inside that application's own NodeManager app-cache dirs.
 */
public final class RegisterRequest {

  private static final Set<String> KEYS = Collections.unmodifiableSet(new LinkedHashSet<>(Arrays.asList(
      ShuffleProtocol.APP, ShuffleProtocol.EXEC, ShuffleProtocol.DIRS, ShuffleProtocol.TS)));

  private final String appId;
  private final String executorId;
  private final List<String> dirs;

  public RegisterRequest(String appId, String executorId, List<String> dirs) {
    ShuffleIds.requireAppId(appId);
    ShuffleIds.requireExecutorId(executorId);
    dirs = Collections.unmodifiableList(new ArrayList<>(dirs));
    if (dirs.isEmpty() || dirs.size() > ShuffleProtocol.MAX_DIRS) {
      throw new IllegalArgumentException("an executor registers 1 to " + ShuffleProtocol.MAX_DIRS + " dirs, not "
          + dirs.size());
    }
    for (String d : dirs) {
      if (d.isEmpty() || d.charAt(0) != '/' || d.indexOf(',') >= 0 || d.indexOf('\0') >= 0 || d.length() > 1024) {
        throw new IllegalArgumentException("a local dir is an absolute path without commas: " + ShuffleIds.shorten(d));
      }
    }
    this.appId = appId;
    this.executorId = executorId;
    this.dirs = dirs;
  }

  public String appId() {
    return appId;
  }

  public String executorId() {
    return executorId;
  }

  public List<String> dirs() {
    return dirs;
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
        Arrays.asList(params.get(ShuffleProtocol.DIRS).split(",", -1)));
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RegisterRequest)) {
      return false;
    }
    RegisterRequest other = (RegisterRequest) o;
    return Objects.equals(appId, other.appId) && Objects.equals(executorId, other.executorId)
        && Objects.equals(dirs, other.dirs);
  }

  @Override
  public int hashCode() {
    int h = Objects.hashCode(appId);
    h = 31 * h + Objects.hashCode(executorId);
    return 31 * h + Objects.hashCode(dirs);
  }

  @Override
  public String toString() {
    return "RegisterRequest[appId=" + appId + ", executorId=" + executorId + ", dirs=" + dirs + "]";
  }
}
