package org.elasticam.shuffle.service.server;

import java.util.Map;
import org.elasticam.shuffle.protocol.FetchRequest;
import org.elasticam.shuffle.protocol.RegisterRequest;
import org.elasticam.shuffle.protocol.RemoveShuffleRequest;

/** A request as the decoder understood it: one of the shapes below and no other, never raw bytes. */
interface ShuffleCall {

  boolean keepAlive();

  /** When the request arrived, for the latency metric. */
  long arrivedNanos();

  /** The signed parts: method, path, parameters, signature header (null when absent). */
  final class Signed {
    private final String method;
    private final String path;
    private final Map<String, String> params;
    private final String signature;

    Signed(String method, String path, Map<String, String> params, String signature) {
      this.method = method;
      this.path = path;
      this.params = params;
      this.signature = signature;
    }

    public String method() {
      return method;
    }

    public String path() {
      return path;
    }

    public Map<String, String> params() {
      return params;
    }

    public String signature() {
      return signature;
    }
  }

  /** A well-formed request of type {@code R} and what its signature must cover. */
  abstract class SignedCall<R> implements ShuffleCall {
    private final R request;
    private final Signed signed;
    private final boolean keepAlive;
    private final long arrivedNanos;

    SignedCall(R request, Signed signed, boolean keepAlive, long arrivedNanos) {
      this.request = request;
      this.signed = signed;
      this.keepAlive = keepAlive;
      this.arrivedNanos = arrivedNanos;
    }

    public R request() {
      return request;
    }

    public Signed signed() {
      return signed;
    }

    @Override
    public boolean keepAlive() {
      return keepAlive;
    }

    @Override
    public long arrivedNanos() {
      return arrivedNanos;
    }
  }

  final class Fetch extends SignedCall<FetchRequest> {
    Fetch(FetchRequest request, Signed signed, boolean keepAlive, long arrivedNanos) {
      super(request, signed, keepAlive, arrivedNanos);
    }
  }

  final class Register extends SignedCall<RegisterRequest> {
    Register(RegisterRequest request, Signed signed, boolean keepAlive, long arrivedNanos) {
      super(request, signed, keepAlive, arrivedNanos);
    }
  }

  final class RemoveShuffle extends SignedCall<RemoveShuffleRequest> {
    RemoveShuffle(RemoveShuffleRequest request, Signed signed, boolean keepAlive, long arrivedNanos) {
      super(request, signed, keepAlive, arrivedNanos);
    }
  }

  final class Rejected implements ShuffleCall {
    private final Rejection rejection;
    private final long arrivedNanos;

    Rejected(Rejection rejection, long arrivedNanos) {
      this.rejection = rejection;
      this.arrivedNanos = arrivedNanos;
    }

    public Rejection rejection() {
      return rejection;
    }

    @Override
    public long arrivedNanos() {
      return arrivedNanos;
    }

    @Override
    public boolean keepAlive() {
      return rejection.keepAlive();
    }
  }
}
