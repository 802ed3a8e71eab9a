package org.elasticam.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;

/**
 * A NodeManager's classpath with the shuffle service jar dropped into it, inside this JVM: Hadoop
 * (and everything else) from the parent, as a jar on a classpath sees it, but the {@code
 * org.elasticam.*} classes the jar holds only from the jar: this JVM has ElasticAM's modules on its
 * classpath and a real NodeManager has none, so what the service uses must come from the jar. (The
 * embedded cluster's own classes, which the jar lacks, still come from the parent.)
 */
final class NodeManagerClasspath extends URLClassLoader {

  static {
    registerAsParallelCapable();
  }

  private static final String OURS = "org.elasticam.";

  NodeManagerClasspath(Path jar, ClassLoader parent) {
    super("nodemanager-classpath", new URL[] {url(jar)}, parent);
  }

  private static URL url(Path jar) {
    try {
      return jar.toUri().toURL();
    } catch (MalformedURLException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    if (!name.startsWith(OURS)) {
      return super.loadClass(name, resolve);
    }
    synchronized (getClassLoadingLock(name)) {
      Class<?> c = findLoadedClass(name);
      if (c == null) {
        try {
          c = findClass(name);
        } catch (ClassNotFoundException notInJar) {
          return super.loadClass(name, resolve);
        }
      }
      if (resolve) {
        resolveClass(c);
      }
      return c;
    }
  }

  void closeQuietly() {
    try {
      close();
    } catch (IOException e) {
      // Nothing left to do.
    }
  }
}
