/**
 * The job API user jars compile against: a {@link org.elasticam.api.Job} is a list of
 * {@link org.elasticam.api.Stage}s of {@link org.elasticam.api.Task}s. No Hadoop, no dependencies.
 *
 * <p>A shuffle carries bytes ({@link org.elasticam.api.ShuffleOutput}, {@link org.elasticam.api.ShuffleInput});
 * typed records go through a {@link org.elasticam.api.Serde} ({@link org.elasticam.api.Serdes} has
 * strings, longs, ints, doubles and byte arrays, each sorting in its natural order):
 * {@link org.elasticam.api.TypedShuffleOutput} writes them, {@link org.elasticam.api.KeyGroups}
 * reads a reduce partition as each key once with its values. A task counts what it did with
 * {@link org.elasticam.api.TaskContext#counter} ({@link org.elasticam.api.Counters} has the
 * built-in names, the shuffle's among them, and the limits); the event log sums them per stage.
 * reads a reduce partition as each key once with its values.
 *
 * <p>A stage that writes a shuffle may name how its records are partitioned
 * ({@link org.elasticam.api.Partitioner}: {@link org.elasticam.api.HashPartitioner} by default,
 * {@link org.elasticam.api.RangePartitioner} for a total order), the order reducers see keys in
 * ({@link org.elasticam.api.KeyOrder}) and a map-side {@link org.elasticam.api.Combiner}
 * ({@link org.elasticam.api.ReducingCombiner} for typed values); see {@link org.elasticam.api.Stage.Builder}.
 */
package org.elasticam.api;
