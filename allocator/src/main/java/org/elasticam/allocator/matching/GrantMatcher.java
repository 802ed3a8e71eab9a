package org.elasticam.allocator.matching;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.elasticam.allocator.model.AskId;
import org.elasticam.allocator.model.Grant;
import org.elasticam.allocator.model.PendingAsk;

/**
 * Pairs granted containers with the pending asks they satisfy: node-local first, then rack-local,
 * then any — in three passes over all grants, so that no grant takes as "any" an ask another grant
 * satisfies locally. Matching stays within the priority the grant came under, because YARN
 * decremented that priority's request table; only when nothing is left there does a grant take an
 * ask of the other priority (never with a node label, whose containers come from other nodes).
 * Each matched ask must be removed from the client, or its stale count would be sent again.
 *
 * <p>Cost: linear in grants plus the distinct host and rack lists the asks name; asks placed in
 * one round share their lists (see ContainerPlacement), so this stays near-linear.
 */
public final class GrantMatcher {

  /** How a grant matched. */
  public enum Level { NODE, RACK, ANY, NONE }

  /** One grant and the ask it satisfies, or none. */
  public record Match(Grant grant, PendingAsk ask, Level level) {}

  private GrantMatcher() {}

  /** @return one match per grant, in the grants' order */
  public static List<Match> match(List<Grant> grants, Collection<PendingAsk> pending, boolean crossPriority) {
    Index index = new Index(pending);
    Match[] out = new Match[grants.size()];
    for (int i = 0; i < grants.size(); i++) {
      Grant g = grants.get(i);
      PendingAsk a = index.take(index.byHost, g.host(), g.localityFree());
      if (a != null) {
        out[i] = new Match(g, a, Level.NODE);
      }
    }
    for (int i = 0; i < grants.size(); i++) {
      Grant g = grants.get(i);
      if (out[i] == null && g.rack() != null) {
        PendingAsk a = index.take(index.byRack, g.rack(), g.localityFree());
        if (a != null) {
          out[i] = new Match(g, a, Level.RACK);
        }
      }
    }
    for (int i = 0; i < grants.size(); i++) {
      Grant g = grants.get(i);
      if (out[i] == null) {
        PendingAsk a = index.takeAny(g.localityFree(), crossPriority);
        out[i] = new Match(g, a, a == null ? Level.NONE : Level.ANY);
      }
    }
    return List.of(out);
  }

  /**
   * Asks indexed by host and rack, per priority. Asks placed in one round share their host list,
   * so asks are grouped by list (by identity) and each distinct list is indexed once: the index
   * costs the number of distinct (list, host) pairs, not asks x hosts.
   */
  private static final class Index {
    final Map<String, List<Deque<PendingAsk>>> byHost = new HashMap<>();
    final Map<String, List<Deque<PendingAsk>>> byRack = new HashMap<>();
    /** For "any": per priority, locality-free asks before located ones, oldest first. */
    final Deque<PendingAsk> anyFree = new ArrayDeque<>();
    final Deque<PendingAsk> anyLocal = new ArrayDeque<>();
    final Set<AskId> taken = new HashSet<>();

    Index(Collection<PendingAsk> pending) {
      Map<List<String>, Deque<PendingAsk>> hostGroups = new IdentityHashMap<>();
      Map<List<String>, Deque<PendingAsk>> rackGroups = new IdentityHashMap<>();
      List<PendingAsk> spread = new ArrayList<>();
      for (PendingAsk a : pending) {
        boolean free = a.origin().localityFree();
        group(hostGroups, byHost, a.locality().hosts(), free).add(a);
        group(rackGroups, byRack, a.locality().racks(), free).add(a);
        switch (a.origin()) {
          case ANY_HOST -> anyFree.add(a);
          case SPREAD -> spread.add(a);
          case LOCALITY -> anyLocal.add(a);
          default -> throw new IllegalStateException();
        }
      }
      anyFree.addAll(spread);
    }

    /** The group of asks with this very list; a new group is indexed under each place it names. */
    private static Deque<PendingAsk> group(Map<List<String>, Deque<PendingAsk>> groups,
        Map<String, List<Deque<PendingAsk>>> index, List<String> places, boolean free) {
      if (places.isEmpty()) {
        return new ArrayDeque<>();
      }
      Deque<PendingAsk> g = groups.get(places);
      if (g == null) {
        g = new ArrayDeque<>();
        groups.put(places, g);
        for (String p : places) {
          index.computeIfAbsent(key(p, free), k -> new ArrayList<>()).add(g);
        }
      }
      return g;
    }

    private static String key(String place, boolean localityFree) {
      return (localityFree ? "F:" : "L:") + place;
    }

    /** The oldest untaken ask among the groups naming {@code place}. */
    PendingAsk take(Map<String, List<Deque<PendingAsk>>> index, String place, boolean localityFree) {
      List<Deque<PendingAsk>> groups = index.get(key(place, localityFree));
      if (groups == null) {
        return null;
      }
      Deque<PendingAsk> best = null;
      for (Deque<PendingAsk> g : groups) {
        dropTaken(g);
        if (!g.isEmpty() && (best == null || g.peekFirst().id().compareTo(best.peekFirst().id()) < 0)) {
          best = g;
        }
      }
      return best == null ? null : poll(best);
    }

    PendingAsk takeAny(boolean localityFree, boolean crossPriority) {
      PendingAsk a = poll(localityFree ? anyFree : anyLocal);
      if (a == null && crossPriority) {
        a = poll(localityFree ? anyLocal : anyFree);
      }
      return a;
    }

    private void dropTaken(Deque<PendingAsk> q) {
      while (!q.isEmpty() && taken.contains(q.peekFirst().id())) {
        q.pollFirst();
      }
    }

    private PendingAsk poll(Deque<PendingAsk> q) {
      while (q != null && !q.isEmpty()) {
        PendingAsk a = q.pollFirst();
        if (taken.add(a.id())) {
          return a;
        }
      }
      return null;
    }
  }
}
