package org.elasticam.allocator;

import java.time.Duration;
import java.util.Optional;
import org.elasticam.conf.ElasticConf;
import org.elasticam.conf.ExecutorKeys;
import org.elasticam.conf.Placement;
import org.elasticam.conf.YarnKeys;

/**
 * What the allocator core needs from configuration, read once.
 *
 * @param nodeLabel the node label expression for executor containers, if any
 */
public record AllocatorSettings(
    int executorCores,
    int taskCpus,
    Placement placement,
    Optional<String> nodeLabel,
    boolean excludeOnFailure,
    int maxFailuresPerNode,
    Duration excludeTimeout,
    int maxExecutorFailures,
    Duration failuresValidityInterval) {

  public static AllocatorSettings from(ElasticConf conf) {
    return new AllocatorSettings(
        conf.get(ExecutorKeys.CORES),
        conf.get(ExecutorKeys.TASK_CPUS),
        conf.get(YarnKeys.PLACEMENT),
        conf.getOptional(YarnKeys.NODE_LABEL_EXPRESSION).filter(s -> !s.isBlank()),
        conf.get(YarnKeys.EXCLUDE_ON_FAILURE),
        conf.get(YarnKeys.MAX_FAILURES_PER_NODE),
        conf.get(YarnKeys.EXCLUDE_TIMEOUT),
        conf.maxExecutorFailures(),
        conf.get(YarnKeys.FAILURES_VALIDITY_INTERVAL));
  }

  /** Locality is dropped under a node label: YARN honours a label only on locality-free requests. */
  public boolean localityAllowed() {
    return nodeLabel.isEmpty();
  }
}
