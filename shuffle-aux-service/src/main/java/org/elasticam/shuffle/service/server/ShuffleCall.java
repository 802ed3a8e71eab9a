package org.elasticam.shuffle.service.server;

import java.util.Map;
import org.elasticam.shuffle.protocol.FetchRequest;
import org.elasticam.shuffle.protocol.RegisterRequest;

/** A request as the decoder understood it: one of three shapes, never raw bytes. */
sealed interface ShuffleCall {

  boolean keepAlive();

  /** When the request arrived, for the latency metric. */
  long arrivedNanos();

  /** The signed parts: method, path, parameters, signature header (null when absent). */
  record Signed(String method, String path, Map<String, String> params, String signature) {}

  record Fetch(FetchRequest request, Signed signed, boolean keepAlive, long arrivedNanos) implements ShuffleCall {}

  record Register(RegisterRequest request, Signed signed, boolean keepAlive, long arrivedNanos) implements ShuffleCall {}

  record Rejected(Rejection rejection, long arrivedNanos) implements ShuffleCall {
    @Override
    public boolean keepAlive() {
      return rejection.keepAlive();
    }
  }
}
