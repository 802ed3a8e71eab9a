package org.elasticam.am.job;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.elasticam.api.Stage;
import org.elasticam.engine.job.DagPlan;
import org.elasticam.engine.job.JobPlan;
import org.elasticam.io.commit.OutputCommit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The output directories of a batch job's stages, prepared at its start and, at its end, committed
 * when it succeeded or removed when it did not ({@link OutputCommit}'s job half; the executors run
 * the task half).
 */
public final class JobOutputs {

  private static final Logger LOG = LoggerFactory.getLogger(JobOutputs.class);

  /** Directory to whether a stage overwrites it. */
  private final Map<Path, Boolean> dirs;
  private final Configuration conf;

  private JobOutputs(Map<Path, Boolean> dirs, Configuration conf) {
    this.dirs = dirs;
    this.conf = conf;
  }

  /** The outputs of {@code plan}'s stages (none for a streaming or trace job). */
  public static JobOutputs of(JobPlan plan, Configuration conf) {
    Map<Path, Boolean> dirs = new LinkedHashMap<>();
    if (plan instanceof DagPlan dag) {
      for (Stage s : dag.stages()) {
        if (s.output() != null) {
          dirs.merge(new Path(s.output().dir()), s.output().overwrite(), Boolean::logicalOr);
        }
      }
    }
    return new JobOutputs(dirs, conf);
  }

  public boolean isEmpty() {
    return dirs.isEmpty();
  }

  /**
   * @param firstAttempt false in a restarted AM, which keeps what its earlier attempts committed
   * @throws IOException with a line for the user when a directory exists and is not overwritten
   */
  public void setup(boolean firstAttempt) throws IOException {
    for (Map.Entry<Path, Boolean> d : dirs.entrySet()) {
      OutputCommit.setupJob(conf, d.getKey(), d.getValue(), firstAttempt);
    }
  }

  /** Moves each task's files into place and writes {@code _SUCCESS}, directory by directory. */
  public void commit() throws IOException {
    for (Path d : dirs.keySet()) {
      int files = OutputCommit.commitJob(conf, d);
      LOG.info("Committed the job's output {}: {} files of its tasks and {}", d, files, OutputCommit.SUCCESS);
    }
  }

  /** Removes every output directory; a directory that cannot be removed is logged and the rest still go. */
  public void abort(String why) {
    for (Path d : dirs.keySet()) {
      try {
        OutputCommit.abortJob(conf, d);
        LOG.info("Removed the job's output {}: {}", d, why);
      } catch (IOException | RuntimeException e) {
        LOG.warn("Could not remove the job's output {} ({}): {}", d, why, e.toString());
      }
    }
  }
}
