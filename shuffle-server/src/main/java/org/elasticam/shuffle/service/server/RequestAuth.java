package org.elasticam.shuffle.service.server;

import java.time.Duration;
import java.util.Optional;
import org.elasticam.shuffle.protocol.FetchRequest;
import org.elasticam.shuffle.protocol.RequestSigner;
import org.elasticam.shuffle.service.apps.AppEntry;

/**
 * Whether a request may proceed: a known application, a timestamp within the allowed age, and its
 * signature under that application's secret (compared in constant time). A pure function; every
 * failure is a 401 whose text says which check failed, never what the secret or signature is.
 */
final class RequestAuth {

  private RequestAuth() {}

  static Optional<Rejection> check(Optional<AppEntry> app, ShuffleCall.Signed signed, long nowMs, Duration maxAge) {
    if (!app.isPresent()) {
      return Optional.of(Rejection.of(401, "unknown application"));
    }
    if (signed.signature() == null) {
      return Optional.of(Rejection.of(401, "missing " + org.elasticam.shuffle.protocol.ShuffleProtocol.SIGNATURE_HEADER));
    }
    long ts = FetchRequest.timestamp(signed.params());
    if (Math.abs(nowMs - ts) > maxAge.toMillis()) {
      return Optional.of(Rejection.of(401, "stale timestamp: the request is more than " + maxAge.getSeconds()
          + " s from the service's clock"));
    }
    if (!RequestSigner.verify(app.get().secret(), signed.method(), signed.path(), signed.params(), signed.signature())) {
      return Optional.of(Rejection.of(401, "bad signature"));
    }
    return Optional.empty();
  }
}
