package org.elasticam.conf;

/**
 * Families of keys that set a container's environment variables, one key per variable, as
 * Spark's {@code spark.yarn.appMasterEnv.*} and {@code spark.executorEnv.*} do: the variable is the
 * part after the prefix, the value is taken literally. {@code JAVA_HOME} among them points the AM
 * or the executors at another Java home than the node's.
 */
public final class EnvironmentKeys {

  /** {@code elasticam.yarn.appMasterEnv.<NAME>=value}: the AM container's environment. */
  public static final String AM_ENV_PREFIX = "elasticam.yarn.appMasterEnv.";

  /** {@code elasticam.executorEnv.<NAME>=value}: every executor container's environment. */
  public static final String EXECUTOR_ENV_PREFIX = "elasticam.executorEnv.";

  private EnvironmentKeys() {}

  /** Whether {@code key} sets a variable of one of the families. */
  public static boolean isEnvironmentKey(String key) {
    return variable(key, AM_ENV_PREFIX) != null || variable(key, EXECUTOR_ENV_PREFIX) != null;
  }

  /** The variable {@code key} sets under {@code prefix}, or null when it is not of that family. */
  public static String variable(String key, String prefix) {
    if (!key.startsWith(prefix) || key.length() == prefix.length()) {
      return null;
    }
    return key.substring(prefix.length());
  }
}
