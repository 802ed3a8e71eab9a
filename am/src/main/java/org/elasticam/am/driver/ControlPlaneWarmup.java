package org.elasticam.am.driver;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.stub.StreamObserver;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.elasticam.rpc.AppSecretAuth;
import org.elasticam.rpc.ControlPlaneChannels;
import org.elasticam.rpc.proto.DriverGrpc;
import org.elasticam.rpc.proto.DriverMessage;
import org.elasticam.rpc.proto.ExecutorMessage;
import org.elasticam.time.Clock;

/**
 * One session the AM opens with its own control plane while its first containers are being granted
 * and started, so that the first executors to register do not wait for the AM to load the code
 * that serves a session. An AM that has served none loads gRPC's server stream, HTTP/2 and protobuf
 * classes (about 700) when its first executor registers; on the embedded cluster that put 160–250
 * ms between an executor's registration and the AM's answer, against 35 ms once the AM had served
 * one, and every executor of the first wave waited on it.
 *
 * <p>The session is an executor's (the same authentication, TLS when the control plane serves it)
 * but for its first message, which is empty: the control plane refuses it as it refuses any
 * session that does not start with a registration, so the driver never sees it. The answer also
 * says whether the AM reaches its own control plane at all.
 */
public final class ControlPlaneWarmup {

  /** How long the AM waits for its own control plane's answer. */
  static final long DEADLINE_MS = 20_000;

  /**
   * What came of it.
   *
   * @param answered the control plane refused the session as it refuses one that does not register
   * @param detail the status the session ended with
   */
  public record Answer(boolean answered, String detail, long tookMs) {}

  private ControlPlaneWarmup() {}

  /**
   * Opens the session on a daemon thread of its own and completes with the answer; never fails.
   *
   * @param tls the client context executors use when the control plane serves TLS; null: plaintext
   */
  public static CompletableFuture<Answer> start(String host, int port, byte[] secret, SslContext tls, Clock clock) {
    CompletableFuture<Answer> answer = new CompletableFuture<>();
    Thread t = new Thread(() -> answer.complete(run(host, port, secret, tls, clock)), "control-plane-warmup");
    t.setDaemon(true);
    t.start();
    return answer;
  }

  static Answer run(String host, int port, byte[] secret, SslContext tls, Clock clock) {
    long started = clock.nowMs();
    ManagedChannel channel = ControlPlaneChannels.builder(host, port, tls).build();
    try {
      CompletableFuture<Status> end = new CompletableFuture<>();
      StreamObserver<ExecutorMessage> up = DriverGrpc.newStub(channel)
          .withCallCredentials(AppSecretAuth.credentials(secret, clock))
          .withDeadlineAfter(DEADLINE_MS, TimeUnit.MILLISECONDS)
          .session(new StreamObserver<>() {
            @Override
            public void onNext(DriverMessage m) {
              // The control plane sends nothing to a session that did not register.
            }

            @Override
            public void onError(Throwable e) {
              end.complete(Status.fromThrowable(e));
            }

            @Override
            public void onCompleted() {
              end.complete(Status.OK);
            }
          });
      up.onNext(ExecutorMessage.getDefaultInstance());
      Status s = end.get();
      return new Answer(refusedAsUnregistered(s), describe(s), clock.nowMs() - started);
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      return new Answer(false, e.toString(), clock.nowMs() - started);
    } finally {
      channel.shutdownNow();
    }
  }

  /**
   * The ends the control plane gives a session whose first message is not a registration: the
   * driver not attached yet, or attached and refusing it. Anything else, UNAVAILABLE included, can
   * be the transport's own end (a connection refused, or closed by a TLS server spoken to in
   * plaintext), not an answer.
   */
  private static boolean refusedAsUnregistered(Status s) {
    return same(s, DriverService.NOT_RUNNING) || same(s, Driver.UNREGISTERED);
  }

  private static boolean same(Status s, Status refusal) {
    return s.getCode() == refusal.getCode() && refusal.getDescription().equals(s.getDescription());
  }

  private static String describe(Status s) {
    return s.getCode() + (s.getDescription() == null ? "" : ": " + s.getDescription())
        + (s.getCause() == null ? "" : " (" + s.getCause() + ")");
  }
}
