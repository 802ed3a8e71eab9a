package org.elasticam.am.driver;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.elasticam.rpc.proto.DriverGrpc;
import org.elasticam.rpc.proto.DriverMessage;
import org.elasticam.rpc.proto.ExecutorMessage;

/**
 * The gRPC face of the driver: a thread hop only. Every message and every end of a stream is
 * posted onto the AM's event loop, where {@link SessionHandler} handles it.
 */
public final class DriverService extends DriverGrpc.DriverImplBase {

  /** Called on the event loop. */
  public interface SessionHandler {
    void onMessage(ExecutorSession session, ExecutorMessage message);

    void onClosed(ExecutorSession session, String why);
  }

  /** How a session is refused while the control plane runs but the driver is not attached yet. */
  public static final Status NOT_RUNNING = Status.UNAVAILABLE.withDescription("the driver is not running");

  private final Executor loop;
  private final SessionHandler handler;
  private final AtomicInteger open = new AtomicInteger();

  public DriverService(Executor loop, SessionHandler handler) {
    this.loop = loop;
    this.handler = handler;
  }

  /**
   * Executors' sessions neither side has closed. An executor told to stop closes its own once its
   * tasks stopped and cleaned up.
   */
  public int openSessions() {
    return open.get();
  }

  @Override
  public StreamObserver<ExecutorMessage> session(StreamObserver<DriverMessage> down) {
    open.incrementAndGet();
    ExecutorSession session = new ExecutorSession(down, open::decrementAndGet);
    return new StreamObserver<>() {
      @Override
      public void onNext(ExecutorMessage m) {
        loop.execute(() -> handler.onMessage(session, m));
      }

      @Override
      public void onError(Throwable t) {
        Status s = Status.fromThrowable(t);
        loop.execute(() -> {
          session.markClosed();
          handler.onClosed(session, "stream failed: " + s.getCode() + (s.getDescription() == null ? ""
              : " " + s.getDescription()));
        });
      }

      @Override
      public void onCompleted() {
        loop.execute(() -> {
          session.end();
          handler.onClosed(session, "the executor closed its session");
        });
      }
    };
  }
}
