/**
 * Batch dynamic allocation: what the job needs ({@link org.elasticam.allocator.dynamic.WorkloadTracker}),
 * which executors are idle and until when ({@link org.elasticam.allocator.dynamic.ExecutorMonitor}),
 * and the policies that turn both into a target and removals: {@code spark} (Spark's rules) and
 * {@code elastic} (ours).
 */
package org.elasticam.allocator.dynamic;
