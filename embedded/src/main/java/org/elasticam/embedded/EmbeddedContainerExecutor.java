package org.elasticam.embedded;

import org.apache.hadoop.yarn.server.nodemanager.DefaultContainerExecutor;

/**
 * The default executor, except that a container gets {@code JAVA_HOME} even when this JVM's
 * process has none (these machines do not set it, nor does Maven).
 *
 * <p>For each variable of {@code yarn.nodemanager.env-whitelist} (JAVA_HOME is in the default list)
 * the NodeManager writes {@code export JAVA_HOME=${JAVA_HOME:-"<its own value>"}} into the launch
 * script, but only when it has a value of its own. Supplying ours here keeps exactly that meaning:
 * a container that sets JAVA_HOME keeps it. {@code yarn.nodemanager.admin-env} would not do: it
 * appends to a container's value ({@code a:b}) instead of leaving it alone.
 */
public class EmbeddedContainerExecutor extends DefaultContainerExecutor {

  @Override
  protected String getNMEnvVar(String name) {
    String value = super.getNMEnvVar(name);
    if (value == null && "JAVA_HOME".equals(name)) {
      return System.getProperty("java.home");
    }
    return value;
  }
}
