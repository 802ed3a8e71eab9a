package org.elasticam.allocator.reconcile;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.Map;
import org.elasticam.allocator.model.AskId;
import org.elasticam.allocator.model.AskOrigin;
import org.elasticam.allocator.model.LocalityHints;
import org.elasticam.allocator.model.LocalityPreference;
import org.elasticam.allocator.model.PendingAsk;
import org.elasticam.allocator.placement.ContainerPlacement;
import org.elasticam.allocator.placement.SpreadPlacement;
import org.elasticam.conf.Placement;
import org.elasticam.allocator.reconcile.AskChanges.Cancel;
import org.elasticam.allocator.reconcile.AskChanges.NewAsk;

/**
 * Level-based reconciliation of pending asks against the target: missing = target − pending −
 * running − starting. Missing executors get new asks, placed by locality; a surplus cancels
 * pending asks, those whose locality went stale first, then locality-free ones, then local ones.
 * Stale asks are replaced even when the count is right, and locality-free asks are traded for
 * local ones when new locality hints appear (Spark does either only when executors are missing). Running executors are never touched:
 * killing is the policy's decision, not the reconciler's.
 *
 * <p>Idempotent: once its changes are applied, the same input produces no changes.
 */
public final class Reconciler {

  private Reconciler() {}

  public static AskChanges reconcile(ReconcileInput in) {
    LocalityHints hints = in.localityAllowed() ? in.hints().without(in.excluded()) : LocalityHints.NONE;
    List<PendingAsk> matched = new ArrayList<>();
    List<PendingAsk> stale = new ArrayList<>();
    List<PendingAsk> anyHost = new ArrayList<>();
    for (PendingAsk ask : in.pending()) {
      switch (classify(ask, hints, in)) {
        case MATCHED -> matched.add(ask);
        case STALE -> stale.add(ask);
        case ANY_HOST -> anyHost.add(ask);
        default -> throw new IllegalStateException();
      }
    }
    int missing = in.target() - in.pending().size() - in.running() - in.starting();
    String counts = "target " + in.target() + ", running " + in.running() + ", starting " + in.starting()
        + ", pending " + in.pending().size();
    boolean localityToGain = !anyHost.isEmpty() && hints.localityAwareTasks() > 0;
    if (missing > 0 || (missing == 0 && (!stale.isEmpty() || localityToGain))) {
      return fill(in, hints, missing, matched, stale, anyHost, counts);
    }
    if (missing < 0) {
      AskChanges cancelled = cancelSurplus(-missing, matched, stale, anyHost, counts);
      Set<AskId> gone = new HashSet<>();
      cancelled.cancels().forEach(c -> gone.add(c.ask()));
      matched.removeIf(a -> gone.contains(a.id()));
      stale.removeIf(a -> gone.contains(a.id()));
      anyHost.removeIf(a -> gone.contains(a.id()));
      boolean stillToGain = !anyHost.isEmpty() && hints.localityAwareTasks() > 0;
      if (stale.isEmpty() && !stillToGain) {
        return cancelled;
      }
      AskChanges traded = fill(in, hints, 0, matched, stale, anyHost, counts);
      List<Cancel> cancels = new ArrayList<>(cancelled.cancels());
      cancels.addAll(traded.cancels());
      return new AskChanges(cancels, traded.adds(), cancelled.summary());
    }
    return AskChanges.NONE;
  }

  private enum Kind { MATCHED, STALE, ANY_HOST }

  private static Kind classify(PendingAsk ask, LocalityHints hints, ReconcileInput in) {
    if (ask.origin() == AskOrigin.ANY_HOST) {
      return Kind.ANY_HOST;
    }
    if (ask.origin() == AskOrigin.SPREAD) {
      boolean spreadStillFits = in.localityAllowed() && in.placement() == Placement.SPREAD
          && ask.locality().hosts().stream().noneMatch(in.excluded()::contains);
      return spreadStillFits ? Kind.ANY_HOST : Kind.STALE;
    }
    for (String h : ask.locality().hosts()) {
      if (hints.prefers(h)) {
        return Kind.MATCHED;
      }
    }
    return Kind.STALE;
  }

  private static AskChanges fill(ReconcileInput in, LocalityHints hints, int missing, List<PendingAsk> matched,
      List<PendingAsk> stale, List<PendingAsk> anyHost, String counts) {
    List<Cancel> cancels = new ArrayList<>();
    for (PendingAsk s : stale) {
      cancels.add(new Cancel(s.id(), "its locality is no longer wanted"));
    }
    int available = missing + stale.size();
    int potential = available + anyHost.size();
    List<LocalityPreference> placed = ContainerPlacement.place(potential, hints, in.activeOnHost(), matched,
        in.executorCores(), in.taskCpus(), in.rackOfHost());
    List<NewAsk> adds = new ArrayList<>();
    for (LocalityPreference p : placed) {
      if (!p.isNone()) {
        adds.add(new NewAsk(p, AskOrigin.LOCALITY));
      }
    }
    int local = adds.size();
    if (available >= local) {
      adds.addAll(localityFree(available - local, in, anyHost));
    } else {
      // Trade locality-free asks for local ones: the newest go first.
      for (int i = 0; i < local - available; i++) {
        PendingAsk free = anyHost.get(anyHost.size() - 1 - i);
        cancels.add(new Cancel(free.id(), "replaced by a request with locality"));
      }
    }
    String summary = counts + ": " + missing + " missing" + (stale.isEmpty() ? "" : ", " + stale.size() + " stale");
    return new AskChanges(cancels, adds, summary);
  }

  private static List<NewAsk> localityFree(int count, ReconcileInput in, List<PendingAsk> anyHost) {
    List<NewAsk> out = new ArrayList<>(count);
    if (count <= 0) {
      return out;
    }
    List<String> spreadHosts = List.of();
    if (in.localityAllowed() && in.placement() == Placement.SPREAD) {
      Map<String, Integer> ours = new HashMap<>(in.activeOnHost());
      for (PendingAsk a : anyHost) {
        a.locality().hosts().forEach(h -> ours.merge(h, 1, Integer::sum));
      }
      List<String> live = in.liveHosts().stream().filter(h -> !in.excluded().contains(h)).toList();
      spreadHosts = SpreadPlacement.hosts(count, live, ours);
    }
    for (int i = 0; i < count; i++) {
      if (i < spreadHosts.size()) {
        String h = spreadHosts.get(i);
        out.add(new NewAsk(LocalityPreference.onHost(h, in.rackOfHost().get(h)), AskOrigin.SPREAD));
      } else {
        out.add(new NewAsk(LocalityPreference.NONE, AskOrigin.ANY_HOST));
      }
    }
    return out;
  }

  private static AskChanges cancelSurplus(int surplus, List<PendingAsk> matched, List<PendingAsk> stale,
      List<PendingAsk> anyHost, String counts) {
    List<Cancel> cancels = new ArrayList<>();
    String reason = "the target dropped (" + counts + ")";
    for (List<PendingAsk> group : List.of(stale, anyHost, matched)) {
      for (int i = group.size() - 1; i >= 0 && cancels.size() < surplus; i--) {
        cancels.add(new Cancel(group.get(i).id(), reason));
      }
    }
    return new AskChanges(cancels, List.of(), counts + ": " + surplus + " too many pending");
  }
}
