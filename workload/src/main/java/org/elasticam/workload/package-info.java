/**
 * Workload traces: {@link org.elasticam.workload.Trace} reads a {@code <name>.trace.jsonl} file
 * (one Spark stage attempt per line), and {@link org.elasticam.workload.Replay} holds the replay
 * rule of DESIGN §5 as a clock-free state machine, so the {@code trace} job on YARN and the
 * simulator replay a trace identically. No Hadoop here.
 */
package org.elasticam.workload;
