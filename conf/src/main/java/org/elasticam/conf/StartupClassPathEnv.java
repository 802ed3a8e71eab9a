package org.elasticam.conf;

/**
 * What an executor's launch context and the executor agree on about its start-up classpath: the
 * JVM's CLASSPATH holds no jar of the cluster's, and this variable holds the whole classpath the
 * executor adds once registered.
 */
public final class StartupClassPathEnv {

  /** The whole classpath the executor's tasks get, as CLASSPATH would hold it (wildcards allowed). */
  public static final String TASK_CLASSPATH = "ELASTICAM_TASK_CLASSPATH";

  private StartupClassPathEnv() {}
}
