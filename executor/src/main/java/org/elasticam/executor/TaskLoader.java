package org.elasticam.executor;

import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.elasticam.api.Combiner;
import org.elasticam.api.KeyOrder;
import org.elasticam.api.Partitioner;
import org.elasticam.api.Task;
import org.elasticam.executor.shuffle.ShuffleFunctions;
import org.elasticam.rpc.proto.ShuffleWrite;

/**
 * Loads task classes, and the partitioners, key orders and combiners stages name: built-in ones
 * from the executor's own classpath, user ones from the user jar YARN localized into the
 * container, through one class loader for the executor's life.
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
    return newInstance(className, Task.class);
  }

  /**
   * A map task's partitioner, key order and combiner, each configured with the stage's shuffle
   * parameters (empty names are the defaults).
   *
   * @throws IllegalArgumentException when one refuses its parameters
   */
  ShuffleFunctions shuffleFunctions(ShuffleWrite w) throws ReflectiveOperationException {
    Map<String, String> params = w.getShuffleParamsMap();
    KeyOrder order = keyOrder(w.getKeyOrderClass(), params);
    Partitioner partitioner = w.getPartitionerClass().isEmpty() ? ShuffleFunctions.DEFAULT.partitioner()
        : newInstance(w.getPartitionerClass(), Partitioner.class);
    partitioner.configure(params, order);
    Combiner combiner = null;
    if (!w.getCombinerClass().isEmpty()) {
      combiner = newInstance(w.getCombinerClass(), Combiner.class);
      combiner.configure(params);
    }
    return new ShuffleFunctions(partitioner, order, combiner);
  }

  /** The key order {@code className} names, configured; unsigned byte order when it is empty. */
  KeyOrder keyOrder(String className, Map<String, String> params) throws ReflectiveOperationException {
    if (className.isEmpty()) {
      return ShuffleFunctions.DEFAULT.order();
    }
    KeyOrder order = newInstance(className, KeyOrder.class);
    order.configure(params);
    return order;
  }

  private <T> T newInstance(String className, Class<T> type) throws ReflectiveOperationException {
    Class<?> c = Class.forName(className, true, loader);
    if (!type.isAssignableFrom(c)) {
      throw new ClassNotFoundException(className + " does not implement " + type.getName());
    }
    return type.cast(c.getDeclaredConstructor().newInstance());
  }

  @Override
  public void close() throws IOException {
    if (userLoader != null) {
      userLoader.close();
    }
  }
}
