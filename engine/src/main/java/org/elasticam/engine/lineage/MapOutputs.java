package org.elasticam.engine.lineage;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where every map task's shuffle output is, per shuffle (a shuffle's id is its map stage's id):
 * which executor wrote it, on which host, served on which port, under which dirs, and whether a
 * NodeManager's shuffle service serves it (so it outlives the executor). Lost output is forgotten
 * here, and its map tasks remembered as lost, so that their re-runs replace rather than keep what
 * is on disk. Owner thread only.
 */
public final class MapOutputs {

  /** One map task's output. */
  public record Output(String executorId, String host, int port, List<String> localDirs, boolean external) {}

  private final Map<Integer, Output[]> byShuffle = new HashMap<>();
  private final Map<Integer, Set<Integer>> lost = new HashMap<>();
  /** Per shuffle, why its output was last lost, for the log of the re-run it causes. */
  private final Map<Integer, String> lostWhy = new HashMap<>();
  /** Shuffles whose files their servers were told to delete: what is left of them is worth nothing. */
  private final Set<Integer> deleted = new HashSet<>();

  public void register(int shuffleId, int maps) {
    byShuffle.putIfAbsent(shuffleId, new Output[maps]);
  }

  /** No stage will read this shuffle again and none will re-run its maps: its locations go. */
  public void forget(int shuffleId) {
    byShuffle.remove(shuffleId);
    deleted.remove(shuffleId);
    lost.remove(shuffleId);
    lostWhy.remove(shuffleId);
  }

  public boolean isShuffle(int shuffleId) {
    return byShuffle.containsKey(shuffleId);
  }

  public void put(int shuffleId, int mapId, Output o) {
    byShuffle.get(shuffleId)[mapId] = o;
  }

  /** Forgets these map outputs: they are missing or corrupt. Returns those that were known. */
  public Set<Integer> lose(int shuffleId, List<Integer> mapIds) {
    Output[] outputs = byShuffle.get(shuffleId);
    Set<Integer> forgotten = new TreeSet<>();
    if (outputs == null) {
      return forgotten;
    }
    for (int m : mapIds) {
      if (m >= 0 && m < outputs.length && outputs[m] != null) {
        outputs[m] = null;
        forgotten.add(m);
      }
      if (m >= 0 && m < outputs.length) {
        lost.computeIfAbsent(shuffleId, k -> new HashSet<>()).add(m);
      }
    }
    return forgotten;
  }

  /**
   * The executor is gone: the output it served itself goes with it (output a shuffle service
   * serves stays). Returns the shuffles that lost output.
   */
  public Set<Integer> executorLost(String executorId) {
    return loseWhere(o -> !o.external() && o.executorId().equals(executorId),
        "its executors are gone and no shuffle service kept their output");
  }

  /**
   * The node left the cluster: every output on it is gone, the ones its shuffle service served
   * too. Returns the shuffles that lost output.
   */
  public Set<Integer> hostLost(String host) {
    return loseWhere(o -> o.host().equals(host), "its node " + host + " was lost, and its shuffle service with it");
  }

  private Set<Integer> loseWhere(java.util.function.Predicate<Output> gone, String why) {
    Set<Integer> affected = new TreeSet<>();
    byShuffle.forEach((shuffle, outputs) -> {
      for (int m = 0; m < outputs.length; m++) {
        if (outputs[m] != null && gone.test(outputs[m])) {
          outputs[m] = null;
          lost.computeIfAbsent(shuffle, k -> new HashSet<>()).add(m);
          lostWhy.put(shuffle, why);
          affected.add(shuffle);
        }
      }
    });
    return affected;
  }

  /** Per shuffle, the maps whose output is on this host. */
  public Map<Integer, List<Integer>> on(String host) {
    Map<Integer, List<Integer>> out = new java.util.TreeMap<>();
    byShuffle.forEach((shuffle, outputs) -> {
      for (int m = 0; m < outputs.length; m++) {
        if (outputs[m] != null && outputs[m].host().equals(host)) {
          out.computeIfAbsent(shuffle, k -> new ArrayList<>()).add(m);
        }
      }
    });
    return out;
  }

  /** Why the shuffle's output was last lost. */
  public String lostWhy(int shuffleId) {
    return lostWhy.getOrDefault(shuffleId, "its output is missing");
  }

  /** Whether map {@code mapId}'s output was lost before: its re-run replaces what is on disk. */
  public boolean wasLost(int shuffleId, int mapId) {
    return lost.getOrDefault(shuffleId, Set.of()).contains(mapId);
  }

  /** Every map's output of the shuffle, null where it is missing; empty for an unknown shuffle. */
  public List<Output> outputs(int shuffleId) {
    Output[] outputs = byShuffle.get(shuffleId);
    return outputs == null ? List.of() : java.util.Arrays.asList(outputs.clone());
  }

  /** Map tasks of the shuffle without output. */
  public List<Integer> missing(int shuffleId) {
    Output[] outputs = byShuffle.get(shuffleId);
    List<Integer> out = new ArrayList<>();
    for (int m = 0; outputs != null && m < outputs.length; m++) {
      if (outputs[m] == null) {
        out.add(m);
      }
    }
    return out;
  }

  /** Every stage that reads this shuffle completed and its servers were told to delete its files. */
  public void deleted(int shuffleId) {
    deleted.add(shuffleId);
  }

  /**
   * Whether this executor holds output that would be lost with it (no service serves it), of a
   * shuffle whose files were not deleted.
   */
  public boolean holdsUnservedOutput(String executorId) {
    return byShuffle.entrySet().stream().filter(e -> !deleted.contains(e.getKey()))
        .flatMap(e -> java.util.Arrays.stream(e.getValue()))
        .anyMatch(o -> o != null && !o.external() && o.executorId().equals(executorId));
  }

  /** Whether this executor wrote output a shuffle service now serves. */
  public boolean wroteServedOutput(String executorId) {
    return byShuffle.values().stream().flatMap(java.util.Arrays::stream)
        .anyMatch(o -> o != null && o.external() && o.executorId().equals(executorId));
  }
}
