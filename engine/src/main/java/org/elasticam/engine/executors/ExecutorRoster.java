package org.elasticam.engine.executors;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * Where each executor stands beyond being registered: a survivor of an earlier AM attempt not back
 * yet, retiring (no new tasks, released once idle, with why), being removed by us (its end is no
 * loss), or gone for good (it may never register again). Also the hosts being decommissioned.
 * Owner thread only.
 */
public final class ExecutorRoster {

  /** Why an executor on a host being decommissioned retires; recommissioning the host keeps it. */
  public static final String DECOMMISSIONING = "its node is being decommissioned";

  private final Set<String> gone = new HashSet<>();
  private final Set<String> awaitingReattach = new LinkedHashSet<>();
  private final Map<String, String> retiring = new LinkedHashMap<>();
  private final Set<String> removing = new HashSet<>();
  private final Set<String> decommissioning = new HashSet<>();

  // ---- survivors of an earlier attempt ---------------------------------------------------------

  public void awaitReattach(Collection<String> survivors) {
    awaitingReattach.addAll(survivors);
  }

  /** The executor registers: whether it is a survivor coming back. */
  public boolean reattached(String id) {
    return awaitingReattach.remove(id);
  }

  public List<String> stillAwaited() {
    return List.copyOf(awaitingReattach);
  }

  /** A survivor that will not come back is gone; whether it was one. */
  public boolean survivorGone(String id) {
    if (awaitingReattach.remove(id)) {
      gone.add(id);
      return true;
    }
    return false;
  }

  // ---- gone -------------------------------------------------------------------------------------

  /** It registered once and ended, or we gave up on it: it may not register (again). */
  public void gone(String id) {
    gone.add(id);
  }

  public boolean isGone(String id) {
    return gone.contains(id);
  }

  // ---- retiring and removal ---------------------------------------------------------------------

  /** The executor takes no new tasks and goes once idle; false if it already retires (the first reason stands). */
  public boolean retire(String id, String why) {
    return retiring.putIfAbsent(id, why) == null;
  }

  public Optional<String> retiringWhy(String id) {
    return Optional.ofNullable(retiring.get(id));
  }

  public boolean isRetiring(String id) {
    return retiring.containsKey(id);
  }

  public int retiringCount() {
    return retiring.size();
  }

  /** We are releasing it: its end is expected, not a loss. */
  public void removing(String id) {
    removing.add(id);
  }

  /**
   * The executor ended; whether we were removing it (an expected end). Its retirement, if any, is
   * over.
   */
  public boolean ended(String id) {
    retiring.remove(id);
    return removing.remove(id);
  }

  /** Whether the executor is offered no new tasks. */
  public boolean offersNothing(String id) {
    return removing.contains(id) || retiring.containsKey(id);
  }

  // ---- hosts ------------------------------------------------------------------------------------

  /** Whether the host just began being decommissioned (false if it already was). */
  public boolean decommissioning(String host) {
    return decommissioning.add(host);
  }

  /** Whether the host was being decommissioned and is back in service. */
  public boolean recommissioned(String host) {
    return decommissioning.remove(host);
  }

  public void hostGone(String host) {
    decommissioning.remove(host);
  }

  /** An executor retiring for its host's decommissioning stays after all; whether it was. */
  public boolean staysAfterRecommission(String id) {
    return retiring.remove(id, DECOMMISSIONING);
  }

  // ---- preemption -------------------------------------------------------------------------------

  /**
   * Which registered executors to give back before the ResourceManager preempts: those it names,
   * and {@code more} beyond them of our choosing - idle first, then the least busy, never one that
   * already retires or holds shuffle output only it can serve.
   *
   * @param registered the registered executors, in registration order
   */
  public List<String> toGiveBack(List<String> named, int more, Collection<String> registered,
      Predicate<String> holdsUnservedOutput, ToIntFunction<String> runningTasks) {
    List<String> chosen = new ArrayList<>();
    named.stream().filter(registered::contains).forEach(chosen::add);
    List<String> candidates = registered.stream().filter(id -> !chosen.contains(id) && !retiring.containsKey(id)
        && !holdsUnservedOutput.test(id)).sorted(Comparator.comparingInt(runningTasks)).toList();
    chosen.addAll(candidates.subList(0, Math.min(more, candidates.size())));
    return chosen;
  }
}
