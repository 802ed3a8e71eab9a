package org.elasticam.executor;

import io.grpc.stub.StreamObserver;
import org.elasticam.rpc.proto.ExecutorMessage;

/**
 * The one way to send on the session stream: gRPC stream observers are not thread-safe, and task
 * threads, the heartbeat thread and the reader all send.
 */
final class Outbox {

  private final StreamObserver<ExecutorMessage> stream;
  private boolean closed;

  Outbox(StreamObserver<ExecutorMessage> stream) {
    this.stream = stream;
  }

  synchronized void send(ExecutorMessage m) {
    if (!closed) {
      stream.onNext(m);
    }
  }

  synchronized void close() {
    if (!closed) {
      closed = true;
      stream.onCompleted();
    }
  }
}
