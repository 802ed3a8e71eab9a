package org.elasticam.shuffle.client;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import org.elasticam.time.Clock;

/**
 * Idle keep-alive connections per service, last returned first out. A connection idle longer than
 * {@link ClientSettings#maxIdleTime()} is closed rather than reused: the service may be closing it
 * at that moment.
 */
final class ConnectionPool implements AutoCloseable {

  private final ClientSettings settings;
  private final Clock clock;
  private final Map<ServiceAddress, Deque<HttpConnection>> idle = new HashMap<>();
  private boolean closed;

  ConnectionPool(ClientSettings settings, Clock clock) {
    this.settings = settings;
    this.clock = clock;
  }

  /** An idle connection to {@code a}, or a new one. */
  HttpConnection take(ServiceAddress a) throws IOException {
    long now = clock.nowMs();
    synchronized (this) {
      if (closed) {
        throw new IOException("the shuffle client is closed");
      }
      Deque<HttpConnection> q = idle.get(a);
      while (q != null && !q.isEmpty()) {
        HttpConnection c = q.pollFirst();
        if (now - c.idleSinceMs() < settings.maxIdleTime().toMillis()) {
          return c;
        }
        c.close();
      }
    }
    return HttpConnection.open(a, settings);
  }

  /** A connection whose response was read completely, and may be reused. */
  void giveBack(HttpConnection c) {
    c.markIdle(clock.nowMs());
    synchronized (this) {
      Deque<HttpConnection> q = idle.computeIfAbsent(c.address(), k -> new ArrayDeque<>());
      if (!closed && q.size() < settings.maxIdlePerHost()) {
        q.addFirst(c);
        return;
      }
    }
    c.close();
  }

  synchronized int idleCount(ServiceAddress a) {
    Deque<HttpConnection> q = idle.get(a);
    return q == null ? 0 : q.size();
  }

  @Override
  public synchronized void close() {
    closed = true;
    idle.values().forEach(q -> q.forEach(HttpConnection::close));
    idle.clear();
  }
}
