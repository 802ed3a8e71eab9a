package org.elasticam.io;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Where a job's relative paths point: the working directory of the submitter's default file
 * system ({@code fs.defaultFS}) as the client saw it, wherever the job's code runs. The client
 * hands it to the ApplicationMaster in {@link #WORKING_DIR_ENV}; in the client itself the file
 * system's own working directory is the submitter's.
 */
public final class JobPaths {

  /** The environment variable that carries the submitter's working directory, as a qualified URI. */
  public static final String WORKING_DIR_ENV = "ELASTICAM_WORKING_DIR";

  /** A system property that overrides {@link #WORKING_DIR_ENV} (for tests and embedding). */
  public static final String WORKING_DIR_PROPERTY = "elasticam.job.workingDir";

  private JobPaths() {}

  /**
   * {@code path} made absolute and qualified with its file system's scheme and authority: an
   * absolute path or a URI as it is, a relative one against {@link #workingDirectory}.
   *
   * @throws IllegalArgumentException for a blank path or one Hadoop cannot parse
   */
  public static Path resolve(String path, Configuration conf) throws IOException {
    if (path == null || path.isBlank()) {
      throw new IllegalArgumentException("a blank path");
    }
    Path p = new Path(path);
    if (!p.isAbsolute()) {
      p = new Path(workingDirectory(conf), p);
    }
    return p.getFileSystem(conf).makeQualified(p);
  }

  /** The submitter's working directory, qualified. */
  public static Path workingDirectory(Configuration conf) throws IOException {
    String given = System.getProperty(WORKING_DIR_PROPERTY);
    if (given == null || given.isBlank()) {
      given = System.getenv(WORKING_DIR_ENV);
    }
    if (given != null && !given.isBlank()) {
      return new Path(given);
    }
    FileSystem fs = FileSystem.get(conf);
    return fs.makeQualified(fs.getWorkingDirectory());
  }
}
