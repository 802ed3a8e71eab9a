package org.elasticam.allocator.ledger;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.elasticam.allocator.ledger.HeldContainer.State;
import org.elasticam.allocator.model.AskId;
import org.elasticam.allocator.model.AskOrigin;
import org.elasticam.allocator.model.ContainerRef;
import org.elasticam.allocator.model.ExecutorId;
import org.elasticam.allocator.model.LocalityPreference;
import org.elasticam.allocator.model.PendingAsk;

/**
 * What the allocator has asked for and holds, including what it expects but has not yet seen:
 * asks sent but not granted, releases sent but not completed. Every decision counts from here,
 * so a round never asks twice for the same missing executor.
 *
 * <p>Owned by one thread; no locks.
 */
public final class AllocationLedger {

  private final Map<AskId, PendingAsk> pending = new LinkedHashMap<>();
  private final Map<ContainerRef, HeldContainer> held = new HashMap<>();
  private final Map<ExecutorId, ContainerRef> containerOf = new HashMap<>();
  /** Running + starting containers per host: what placement subtracts. */
  private final Map<String, Integer> activeOnHost = new HashMap<>();
  private int starting;
  private int running;
  private int releasing;
  private long nextAsk = 1;
  private int nextExecutor = 1;

  // ---- asks -----------------------------------------------------------------------------------

  public PendingAsk addAsk(LocalityPreference locality, AskOrigin origin, long nowMs) {
    PendingAsk ask = new PendingAsk(new AskId(nextAsk++), locality, origin, nowMs);
    pending.put(ask.id(), ask);
    return ask;
  }

  public Optional<PendingAsk> removeAsk(AskId id) {
    return Optional.ofNullable(pending.remove(id));
  }

  /** Pending asks, oldest first. */
  public Collection<PendingAsk> pendingAsks() {
    return Collections.unmodifiableCollection(pending.values());
  }

  public int pendingCount() {
    return pending.size();
  }

  // ---- containers -----------------------------------------------------------------------------

  /** A granted container we will launch an executor in; the executor gets the next id. */
  public HeldContainer startExecutor(ContainerRef container, String host, long nowMs, long askedAtMs) {
    HeldContainer c = new HeldContainer(container, new ExecutorId(nextExecutor++), host, State.STARTING, nowMs,
        askedAtMs);
    held.put(container, c);
    containerOf.put(c.executor(), container);
    activeOnHost.merge(host, 1, Integer::sum);
    starting++;
    return c;
  }

  /**
   * A container an earlier attempt of the AM launched executor {@code id} in, and which outlived
   * that attempt: held as running, and later executors are numbered after it.
   */
  public HeldContainer adoptExecutor(ContainerRef container, ExecutorId id, String host, long grantedAtMs) {
    if (held.containsKey(container) || containerOf.containsKey(id)) {
      throw new IllegalStateException("adopting " + container + " as executor " + id + " twice");
    }
    HeldContainer c = new HeldContainer(container, id, host, State.RUNNING, grantedAtMs, grantedAtMs);
    held.put(container, c);
    containerOf.put(id, container);
    activeOnHost.merge(host, 1, Integer::sum);
    running++;
    numberExecutorsFrom(id.value() + 1);
    return c;
  }

  /** Executors launched from now on get ids from {@code next} up (an earlier attempt used those below). */
  public void numberExecutorsFrom(int next) {
    nextExecutor = Math.max(nextExecutor, next);
  }

  /** The id the next executor will get. */
  public int nextExecutorId() {
    return nextExecutor;
  }

  /** The launch succeeded; false when the container is no longer starting (released meanwhile). */
  public boolean markRunning(ContainerRef container) {
    HeldContainer c = held.get(container);
    if (c == null || c.state() != State.STARTING) {
      return false;
    }
    held.put(container, c.withState(State.RUNNING));
    starting--;
    running++;
    return true;
  }

  /**
   * We release the container: it stops counting as starting or running at once, and waits for
   * YARN's completion report. Empty when it is unknown or already released.
   */
  public Optional<HeldContainer> markReleasing(ContainerRef container) {
    HeldContainer c = held.get(container);
    if (c == null || c.state() == State.RELEASING) {
      return Optional.empty();
    }
    leaveActive(c);
    held.put(container, c.withState(State.RELEASING));
    releasing++;
    return Optional.of(c);
  }

  /** YARN reported the container completed; returns what it was, empty for unknown or duplicates. */
  public Optional<HeldContainer> complete(ContainerRef container) {
    HeldContainer c = held.remove(container);
    if (c == null) {
      return Optional.empty();
    }
    if (c.state() == State.RELEASING) {
      releasing--;
    } else {
      leaveActive(c);
    }
    containerOf.remove(c.executor());
    return Optional.of(c);
  }

  private void leaveActive(HeldContainer c) {
    if (c.state() == State.STARTING) {
      starting--;
    } else if (c.state() == State.RUNNING) {
      running--;
    }
    activeOnHost.computeIfPresent(c.host(), (h, n) -> n == 1 ? null : n - 1);
  }

  public Optional<HeldContainer> container(ContainerRef container) {
    return Optional.ofNullable(held.get(container));
  }

  public Optional<HeldContainer> executor(ExecutorId id) {
    ContainerRef c = containerOf.get(id);
    return c == null ? Optional.empty() : Optional.ofNullable(held.get(c));
  }

  /** Running and starting containers per host. */
  public Map<String, Integer> activeOnHost() {
    return Collections.unmodifiableMap(activeOnHost);
  }

  /** Containers in one state, in no particular order. */
  public List<HeldContainer> inState(State state) {
    List<HeldContainer> out = new ArrayList<>();
    for (HeldContainer c : held.values()) {
      if (c.state() == state) {
        out.add(c);
      }
    }
    return out;
  }

  public int startingCount() {
    return starting;
  }

  public int runningCount() {
    return running;
  }

  public int releasingCount() {
    return releasing;
  }
}
