package org.elasticam.shuffle.service.server;

/** What the network front reports; the service publishes it through metrics2. Thread-safe. */
public interface ShuffleStats {

  void connectionOpened();

  void connectionClosed();

  /** A connection answered 429: over the connection limit. */
  void connectionRejected();

  /** A response completed (or failed mid-way) with this status, this long after its request arrived. */
  void responded(int status, long latencyNanos);

  /** One block written to the socket. */
  void blockSent(long bytes);

  static ShuffleStats none() {
    return new ShuffleStats() {
      @Override
      public void connectionOpened() {}

      @Override
      public void connectionClosed() {}

      @Override
      public void connectionRejected() {}

      @Override
      public void responded(int status, long latencyNanos) {}

      @Override
      public void blockSent(long bytes) {}
    };
  }
}
