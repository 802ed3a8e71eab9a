package org.elasticam.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A user-space TCP forwarder the embedded cluster puts on a path it may later cut. Cut, it goes
 * on accepting connections and reading what both sides send, but delivers nothing: each side sees
 * a peer that went silent, as across a real network partition, and no root or network namespace is
 * needed. Healed, it drops the connections that lost bytes (their streams are no longer whole) and
 * forwards again, so both sides reconnect as they would after a partition.
 *
 * <p>Thread per direction per connection: the paths it sits on carry a handful of connections.
 */
public final class TcpProxy implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(TcpProxy.class);

  private final ServerSocket server;
  private final Supplier<InetSocketAddress> target;
  private final String name;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private volatile boolean cut;
  /** Connections that carried traffic while cut: closed when healed. */
  private final Set<Socket> damaged = ConcurrentHashMap.newKeySet();
  /** Connections whose bytes are held where they are until {@link #release()}. */
  private final Set<Socket> held = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;

  private TcpProxy(ServerSocket server, Supplier<InetSocketAddress> target, String name) {
    this.server = server;
    this.target = target;
    this.name = name;
  }

  /** Listens on a free port of {@code bindHost} and forwards to {@code target}. */
  public static TcpProxy start(String bindHost, InetSocketAddress target, String name) throws IOException {
    return start(bindHost, () -> target, name);
  }

  /**
   * Listens on a free port of {@code bindHost} and forwards each connection to where {@code target}
   * says when it arrives: for a peer whose address is known only once it runs. A connection
   * arriving while it answers null is closed.
   */
  public static TcpProxy start(String bindHost, Supplier<InetSocketAddress> target, String name) throws IOException {
    return start(new InetSocketAddress(InetAddress.getByName(bindHost), 0), target, name);
  }

  /** Listens on {@code at} (a port of 0 picks a free one) and forwards to where {@code target} says. */
  public static TcpProxy start(InetSocketAddress at, Supplier<InetSocketAddress> target, String name)
      throws IOException {
    ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(at, 50);
    TcpProxy p = new TcpProxy(s, target, name);
    Thread t = new Thread(p::acceptLoop, "proxy-" + name);
    t.setDaemon(true);
    t.start();
    return p;
  }

  public String address() {
    return server.getInetAddress().getHostAddress() + ":" + server.getLocalPort();
  }

  /** From now on nothing gets through, either way. */
  public void cut() {
    cut = true;
    damaged.addAll(open);
    LOG.info("Proxy {} cut: {} connection(s) go silent", name, open.size());
  }

  /** Traffic flows again; connections that lost bytes while cut are closed, so their ends reconnect. */
  public void heal() {
    for (Socket s : damaged) {
      closeQuietly(s);
    }
    damaged.clear();
    cut = false;
    LOG.info("Proxy {} healed", name);
  }

  /**
   * The connections open now stop moving bytes, both ways, and keep what they were sent: what a
   * partition does to TCP connections, whose unacknowledged bytes wait and are retransmitted once
   * it heals. Their ends see a silent peer; keepalives and heartbeats go unanswered. New
   * connections pass.
   *
   * @return how many connections are held
   */
  public int holdOpenConnections() {
    held.addAll(open);
    LOG.info("Proxy {} holds {} open connection(s)", name, open.size());
    return open.size();
  }

  /** Held connections move again, delivering what waited, as TCP does after a partition heals. */
  public void release() {
    held.clear();
    LOG.info("Proxy {} released its held connections", name);
  }

  private void acceptLoop() {
    while (!closed) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket();
        try {
          InetSocketAddress to = target.get();
          if (to == null) {
            throw new IOException("no target yet");
          }
          upstream.connect(to, 10_000);
        } catch (IOException e) {
          closeQuietly(client);
          continue;
        }
        open.add(client);
        open.add(upstream);
        if (cut) {
          damaged.add(client);
          damaged.add(upstream);
        }
        pump(client, upstream);
        pump(upstream, client);
      } catch (IOException e) {
        if (!closed) {
          LOG.warn("Proxy {} stopped accepting: {}", name, e.toString());
        }
        return;
      }
    }
  }

  private void pump(Socket from, Socket to) {
    Thread t = new Thread(() -> {
      byte[] buf = new byte[16 << 10];
      try (InputStream in = from.getInputStream()) {
        OutputStream out = to.getOutputStream();
        for (int n; (n = in.read(buf)) >= 0; ) {
          while (held.contains(from) && !closed) {
            Thread.sleep(20);
          }
          if (cut) {
            damaged.add(from);
            damaged.add(to);
            continue;
          }
          out.write(buf, 0, n);
          out.flush();
        }
      } catch (IOException e) {
        // one end went away: so does the other
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        // An end that goes away while held: the other end hears of it only once released.
        while ((held.contains(from) || held.contains(to)) && !closed) {
          try {
            Thread.sleep(20);
          } catch (InterruptedException e) {
            break;
          }
        }
        closeQuietly(from);
        closeQuietly(to);
        open.remove(from);
        open.remove(to);
      }
    }, "proxy-" + name + "-pump");
    t.setDaemon(true);
    t.start();
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }

  @Override
  public void close() {
    closed = true;
    closeQuietly(server);
    open.forEach(TcpProxy::closeQuietly);
  }

  private static void closeQuietly(ServerSocket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }
}
