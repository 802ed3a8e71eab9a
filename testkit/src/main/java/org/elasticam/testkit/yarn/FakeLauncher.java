package org.elasticam.testkit.yarn;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.Container;
import org.elasticam.allocator.model.ExecutorId;
import org.elasticam.launcher.ExecutorLauncher;

/**
 * A launcher that starts nothing: it records each launch and either reports it started at once
 * ({@link #autoStart}) or holds it until the test calls {@link #startAll} or {@link #failNext}.
 */
public final class FakeLauncher implements ExecutorLauncher {

  /** One launch the allocator asked for. */
  public record Launch(ExecutorId executor, Container container, Callback callback) {}

  private final List<Launch> launched = new ArrayList<>();
  private final List<Launch> held = new ArrayList<>();
  private boolean autoStart = true;
  private int failuresToInject;
  private boolean closed;

  public FakeLauncher autoStart(boolean on) {
    this.autoStart = on;
    return this;
  }

  /** The next {@code n} launches fail as if the NodeManager refused them. */
  public FakeLauncher failNext(int n) {
    this.failuresToInject = n;
    return this;
  }

  @Override
  public void launch(ExecutorId executor, Container container, Callback callback) {
    Launch l = new Launch(executor, container, callback);
    launched.add(l);
    if (failuresToInject > 0) {
      failuresToInject--;
      callback.failed(container, new java.io.IOException("NodeManager at " + container.getNodeId() + " refused"));
    } else if (autoStart) {
      callback.started(container, Map.of());
    } else {
      held.add(l);
    }
  }

  public void startAll(Map<String, ByteBuffer> metadata) {
    List<Launch> now = new ArrayList<>(held);
    held.clear();
    now.forEach(l -> l.callback().started(l.container(), metadata));
  }

  public List<Launch> launched() {
    return List.copyOf(launched);
  }

  public boolean closed() {
    return closed;
  }

  @Override
  public void close() {
    closed = true;
  }
}
