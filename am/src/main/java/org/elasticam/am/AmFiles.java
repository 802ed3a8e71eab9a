package org.elasticam.am;

/**
 * Names shared by the client and the ApplicationMaster: local-resource link names in every
 * container's working directory, and the AM's environment.
 */
public final class AmFiles {

  /** The distributable jar (AM, executor, everything but Hadoop). */
  public static final String APP_JAR = "__elasticam__.jar";
  /** The user's jar, for --jar jobs. */
  public static final String USER_JAR = "__user__.jar";
  /** The trace file, for trace jobs. */
  public static final String TRACE_FILE = "__trace__.jsonl";
  /** The rate profile of a {@code streaming --rate file:F} job. */
  public static final String RATE_FILE = "__rate__.txt";
  /** The keytab, when the submission names one: the AM's alone, never an executor's. */
  public static final String KEYTAB = "__keytab__";

  /** The elasticam.* settings of the submission, as Java properties. */
  public static final String CONF_FILE = "__elasticam_conf__.properties";

  /** The job's command line as the user typed it (files renamed to their staged links), JSON. */
  public static final String JOB_FILE = "__job__.json";

  /** The staging directory on fs.defaultFS, for the AM to find the jars again. */
  public static final String ENV_STAGING_DIR = "ELASTICAM_STAGING_DIR";

  /** Our jar on fs.defaultFS as the AM's container got it, for executors to get the same file. */
  public static final String ENV_APP_JAR = "ELASTICAM_APP_JAR";

  /**
   * Our jar's digest ({@link JarDigest}) as the client computed it from the content it staged, which
   * names the nodes' start-up archives: the AM need not read its own copy again to name them.
   */
  public static final String ENV_APP_JAR_DIGEST = "ELASTICAM_APP_JAR_DIGEST";

  public static final String AM_MAIN = "org.elasticam.am.ApplicationMaster";

  private AmFiles() {}
}
