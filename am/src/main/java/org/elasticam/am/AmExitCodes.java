package org.elasticam.am;

/**
 * How the ApplicationMaster process ends. YARN shows the exit code; the final status and the
 * diagnostic (sent when unregistering) say why.
 */
public final class AmExitCodes {

  /** The job succeeded. */
  public static final int SUCCEEDED = 0;
  /** The job failed: a task failed too often, or the user job could not be planned. */
  public static final int JOB_FAILED = 1;
  /** The configuration or the job's arguments are invalid. */
  public static final int BAD_CONFIGURATION = 10;
  /** Too many executors failed (elasticam.yarn.maxExecutorFailures). */
  public static final int TOO_MANY_EXECUTOR_FAILURES = 11;
  /** The ResourceManager could not be reached, or told us to stop. */
  public static final int RESOURCE_MANAGER = 12;
  /** The application was killed. */
  public static final int KILLED = 13;
  /** A bug: an unexpected error in the AM itself. */
  public static final int INTERNAL_ERROR = 20;

  private AmExitCodes() {}
}
