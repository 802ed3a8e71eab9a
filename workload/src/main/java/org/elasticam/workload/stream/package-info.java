/**
 * Streaming (micro-batch) workloads: {@link org.elasticam.workload.stream.RateProfile} says how
 * many records arrive when, and {@link org.elasticam.workload.stream.BatchLoad} turns that into each
 * batch's due time and tasks. The streaming job on YARN and the simulator both use them, so a
 * simulated batch is the same work as a real one. No Hadoop, no clock: the caller says what time
 * it is.
 */
package org.elasticam.workload.stream;
