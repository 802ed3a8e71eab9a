package org.elasticam.allocator.reconcile;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.elasticam.allocator.model.LocalityHints;
import org.elasticam.allocator.model.PendingAsk;
import org.elasticam.conf.Placement;

/**
 * Desired and observed state for one reconcile round.
 *
 * @param activeOnHost our running and starting containers per host
 * @param liveHosts nodes that may receive containers, for spread placement (may be empty)
 * @param rackOfHost resolved racks of the hosts that appear in hints and live hosts
 * @param excluded nodes the ResourceManager must not give us
 * @param localityAllowed false when a node label is set: YARN honours a label only on
 *     locality-free requests, so locality would take executors outside the label's nodes
 */
public record ReconcileInput(
    int target,
    LocalityHints hints,
    Collection<PendingAsk> pending,
    int running,
    int starting,
    Map<String, Integer> activeOnHost,
    List<String> liveHosts,
    Map<String, String> rackOfHost,
    Set<String> excluded,
    int executorCores,
    int taskCpus,
    Placement placement,
    boolean localityAllowed) {}
