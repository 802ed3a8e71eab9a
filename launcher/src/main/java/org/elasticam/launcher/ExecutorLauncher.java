package org.elasticam.launcher;

import java.nio.ByteBuffer;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.Container;
import org.elasticam.allocator.model.ExecutorId;

/**
 * Starts executors in containers YARN granted us.
 *
 * <p>Contract: {@link #launch} is called on the AM's event-loop thread and returns at once; the
 * work happens on the launcher's own bounded pool. Exactly one of the callback's methods is called,
 * once, on a launcher thread — the caller hops back onto its loop before touching its state. After
 * {@link #close}, pending launches are abandoned and their callbacks may not run.
 */
public interface ExecutorLauncher extends AutoCloseable {

  /** How a launch ended. */
  interface Callback {
    /**
     * The NodeManager started the container.
     *
     * @param serviceMetadata what the NodeManager's auxiliary services published (the shuffle
     *     service's port, by service name)
     */
    void started(Container container, Map<String, ByteBuffer> serviceMetadata);

    /** Starting failed; the caller releases the container and counts the failure. */
    void failed(Container container, Throwable cause);
  }

  void launch(ExecutorId executor, Container container, Callback callback);

  /**
   * Executors launched from now on get these credentials (renewed delegation tokens); running
   * ones get them over the control plane. A launcher that passes no credentials ignores them.
   */
  default void updateTokens(ByteBuffer tokens) {}

  @Override
  void close();
}
