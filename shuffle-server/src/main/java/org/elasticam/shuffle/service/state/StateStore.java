package org.elasticam.shuffle.service.state;

import java.io.Closeable;
import java.io.IOException;
import java.util.Collections;
import java.util.List;

/**
 * Where registered applications and executors survive a NodeManager restart. Writes happen before
 * the service acknowledges what they record. Implementations are thread-safe.
 */
public interface StateStore extends Closeable {

  /** What the store held when it was opened. */
  List<StoredApp> recovered();

  /** True when the store found its previous state corrupt and moved it aside. */
  boolean startedFromCorrupt();

  void putApp(String appId, String user, byte[] secret) throws IOException;

  void removeApp(String appId) throws IOException;

  void putExecutor(String appId, String executorId, List<String> dirs) throws IOException;

  /** No recovery (the NodeManager gave no recovery path): nothing is written anywhere. */
  static StateStore none() {
    return new StateStore() {
      @Override
      public List<StoredApp> recovered() {
        return Collections.emptyList();
      }

      @Override
      public boolean startedFromCorrupt() {
        return false;
      }

      @Override
      public void putApp(String appId, String user, byte[] secret) {}

      @Override
      public void removeApp(String appId) {}

      @Override
      public void putExecutor(String appId, String executorId, List<String> dirs) {}

      @Override
      public void close() {}
    };
  }
}
