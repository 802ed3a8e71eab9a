package org.elasticam.am.job;

import java.io.IOException;
import java.util.Map;
import org.elasticam.engine.job.DagPlan;
import org.elasticam.examples.WordCount;

/**
 * {@code wordcount --input P --output P [--reducers N] [--pause-ms N]}: the example job
 * {@link WordCount}, written on the public API as a user would write it, with {@code --pause-ms}
 * holding the reduce stage back that long after the maps finish (a gap in which idle executors go).
 * The client made the paths absolute and refused an output that exists.
 */
public final class WordCountPlan {

  private WordCountPlan() {}

  /**
   * The job's stages.
   *
   * @throws IllegalArgumentException one line for the user: the input does not exist or holds no data
   */
  public static DagPlan plan(JobSpec spec) throws IOException {
    int reducers = spec.positive("reducers", 2);
    return new DagPlan(WordCount.stages(spec.required("input"), spec.required("output"), reducers),
        Map.of(1, spec.nonNegative("pause-ms", 0)));
  }
}
