package org.elasticam.executor;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.elasticam.api.Task;

/**
 * Loads task classes: built-in ones from the executor's own classpath, user ones from the user jar
 * YARN localized into the container, through one class loader for the executor's life.
 */
final class TaskLoader implements AutoCloseable {

  private final ClassLoader loader;
  private final URLClassLoader userLoader;

  TaskLoader(Optional<String> userJar) throws IOException {
    ClassLoader own = TaskLoader.class.getClassLoader();
    if (userJar.isEmpty()) {
      userLoader = null;
      loader = own;
      return;
    }
    Path jar = Path.of(userJar.get());
    if (!Files.isReadable(jar)) {
      throw new IOException("user jar " + jar.toAbsolutePath() + " is not readable");
    }
    try {
      userLoader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, own);
    } catch (MalformedURLException e) {
      throw new IOException(e);
    }
    loader = userLoader;
  }

  /** @throws ReflectiveOperationException with a message naming the class and what is wrong */
  Task newTask(String className) throws ReflectiveOperationException {
    Class<?> c = Class.forName(className, true, loader);
    if (!Task.class.isAssignableFrom(c)) {
      throw new ClassNotFoundException(className + " does not implement " + Task.class.getName());
    }
    return (Task) c.getDeclaredConstructor().newInstance();
  }

  @Override
  public void close() throws IOException {
    if (userLoader != null) {
      userLoader.close();
    }
  }
}
