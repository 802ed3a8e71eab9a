/**
 * The streaming simulator behind {@code bin/elasticam simulate --streaming}: a deterministic
 * discrete-event simulation of a micro-batch job that drives the <em>real</em> streaming policies
 * ({@code org.elasticam.allocator.streaming}, made by {@code StreamingPolicies.create}) with the
 * <em>same</em> batch work the AM's streaming job runs ({@code workload}'s {@code BatchLoad} over a
 * {@code RateProfile}).
 *
 * <h2>Shape</h2>
 * {@link org.elasticam.sim.streaming.StreamingArgs} and
 * {@link org.elasticam.sim.streaming.StreamingSimConfig} (command line, configuration, settings),
 * {@link org.elasticam.sim.streaming.StreamingWorld} (the batch simulator's cluster model: grant
 * delay, start latency with contention, capacity), {@link org.elasticam.sim.streaming.SimFleet}
 * (asks, starts, registration, departures), {@link org.elasticam.sim.streaming.StreamingSim} (batches,
 * tasks, ticks, the policy's calls), {@link org.elasticam.sim.streaming.StreamingMetrics} (the
 * figures, from batch statistics alone) and {@link org.elasticam.sim.streaming.StreamingFormat}.
 *
 * <h2>What is simplified, and why it is fair</h2>
 * Every policy meets the same world: a batch's tasks take exactly their share of the batch's work
 * plus a fixed overhead, with no skew, stragglers or failures, so the differences between rows are
 * the policies' alone. Executors arrive as the batch simulator's do (grant at the first heartbeat
 * {@code grant-ms} after the ask, then the start latency); a removed executor leaves as soon as it
 * is idle. Determinism: no wall clock, actions at the same millisecond run in scheduling order, and
 * the only randomness is the policies' own, seeded by {@code --seed}.
 */
package org.elasticam.sim.streaming;
