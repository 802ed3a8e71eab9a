package org.elasticam.embedded;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import org.apache.hadoop.yarn.server.nodemanager.DefaultContainerExecutor;
import org.apache.hadoop.yarn.server.nodemanager.executor.LocalizerStartContext;

/**
 * The default executor, except that a container gets {@code JAVA_HOME} even when this JVM's
 * process has none (these machines do not set it, nor does Maven), and that the localizer reads the
 * cluster's site files as on a real node.
 *
 * <p>For each variable of {@code yarn.nodemanager.env-whitelist} (JAVA_HOME is in the default list)
 * the NodeManager writes {@code export JAVA_HOME=${JAVA_HOME:-"<its own value>"}} into the launch
 * script, but only when it has a value of its own. Supplying ours here keeps exactly that meaning:
 * a container that sets JAVA_HOME keeps it. {@code yarn.nodemanager.admin-env} would not do: it
 * appends to a container's value ({@code a:b}) instead of leaving it alone.
 *
 * <p>The default executor runs the localizer in the NodeManager's JVM, and the localizer reads its
 * configuration from the classpath ({@code new YarnConfiguration()}), as a real NodeManager's does
 * from its conf dir. This JVM's classpath has no site files, so the localizer would miss what the
 * cluster's clients know, e.g. a secure HDFS's {@code dfs.data.transfer.protection}, without which
 * no DataNode serves it a block. With {@link #SITE_DIR} set, the localizer sees that dir's site files
 * first.
 */
public class EmbeddedContainerExecutor extends DefaultContainerExecutor {

  /** The dir of the cluster's client site files, for the localizer. */
  static final String SITE_DIR = "elasticam.embedded.siteDir";

  /**
   * The Java home this node gives containers, as a real node's NodeManager passes on its own
   * JAVA_HOME; by default this process's, else the JDK running it. Tests set another to tell the
   * node's Java from the client's.
   */
  public static final String NODE_JAVA_HOME = "embedded.nodemanager.java-home";

  @Override
  protected String getNMEnvVar(String name) {
    if ("JAVA_HOME".equals(name) && getConf() != null && getConf().get(NODE_JAVA_HOME) != null) {
      return getConf().get(NODE_JAVA_HOME);
    }
    String value = super.getNMEnvVar(name);
    if (value == null && "JAVA_HOME".equals(name)) {
      return System.getProperty("java.home");
    }
    return value;
  }

  /** Runs the localizer, in this thread, with the site dir first on the context class loader. */
  @Override
  public void startLocalizer(LocalizerStartContext ctx) throws IOException, InterruptedException {
    String dir = getConf().get(SITE_DIR);
    if (dir == null) {
      super.startLocalizer(ctx);
      return;
    }
    Thread t = Thread.currentThread();
    ClassLoader before = t.getContextClassLoader();
    t.setContextClassLoader(new SiteFirst(Path.of(dir).toUri().toURL(), before));
    try {
      super.startLocalizer(ctx);
    } finally {
      t.setContextClassLoader(before);
    }
  }

  /** Resources from the site dir before the parent's; classes from the parent. */
  private static final class SiteFirst extends URLClassLoader {
    SiteFirst(URL dir, ClassLoader parent) {
      super(new URL[] {dir}, parent);
    }

    @Override
    public URL getResource(String name) {
      URL own = findResource(name);
      return own != null ? own : super.getResource(name);
    }
  }
}
