package org.elasticam.engine.job;

import org.elasticam.allocator.dynamic.AllocationPolicy;
import org.elasticam.allocator.streaming.StreamingPolicy;

/**
 * Who sets a job's executor target: a batch job's dynamic-allocation policy, a streaming job's
 * streaming policy, or neither (static allocation: {@code elasticam.executor.instances}).
 *
 * @param batch the batch dynamic-allocation policy, or null
 * @param streaming the streaming dynamic-allocation policy of a streaming job, or null
 * @param streamingDebug log every streaming decision with its inputs
 */
public record JobPolicies(AllocationPolicy batch, StreamingPolicy streaming, boolean streamingDebug) {

  public static final JobPolicies STATIC = new JobPolicies(null, null, false);

  public static JobPolicies batch(AllocationPolicy policy) {
    return new JobPolicies(policy, null, false);
  }
}
