package org.elasticam.am.driver;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import org.elasticam.rpc.proto.DriverMessage;

/**
 * The driver's end of one executor's control-plane stream. Sent to only from the AM's event loop,
 * so the non-thread-safe stream observer is used by one thread.
 */
public final class ExecutorSession {

  private final StreamObserver<DriverMessage> down;
  private boolean closed;
  String executorId;
  String host;
  String containerId;
  int slots;
  /** Where its shuffle output goes, and whether its node's shuffle service serves it. */
  java.util.List<String> localDirs = java.util.List.of();
  boolean shuffleExternal;
  long lastHeardMs;

  ExecutorSession(StreamObserver<DriverMessage> down) {
    this.down = down;
  }

  boolean registered() {
    return executorId != null;
  }

  void send(DriverMessage m) {
    if (closed) {
      return;
    }
    try {
      down.onNext(m);
    } catch (RuntimeException e) {
      // The stream is already broken; its onError will tell the driver.
      closed = true;
    }
  }

  public void refuse(Status status) {
    if (!closed) {
      closed = true;
      try {
        down.onError(status.asRuntimeException());
      } catch (RuntimeException ignored) {
        // already closed by the transport
      }
    }
  }

  void end() {
    if (!closed) {
      closed = true;
      try {
        down.onCompleted();
      } catch (RuntimeException ignored) {
        // already closed by the transport
      }
    }
  }

  boolean isClosed() {
    return closed;
  }

  void markClosed() {
    closed = true;
  }
}
