package org.elasticam.shuffle.service.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import org.elasticam.shuffle.service.apps.AppRegistry;
import org.elasticam.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The network front's lifecycle: one boss thread accepting, worker event loops (native epoll where
 * it loads, else NIO: {@link Transport}), a small pool of disk threads for opening files, and the
 * shared connection gate and in-flight budget. Knows nothing of Hadoop. Start once, close once.
 */
public final class ShuffleServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ShuffleServer.class);
  /** Work queued for the disk threads beyond this gets 503. */
  private static final int DISK_QUEUE = 4096;

  private final EventLoopGroup boss;
  private final EventLoopGroup workers;
  private final ExecutorService disk;
  private final ConnectionGate gate;
  private final InFlightBudget budget;
  private final Channel channel;
  private final Transport transport;
  private final KeptFiles keptFiles;
  private final OpenDirs openDirs;

  private ShuffleServer(EventLoopGroup boss, EventLoopGroup workers, ExecutorService disk, ConnectionGate gate,
      InFlightBudget budget, Channel channel, Transport transport, KeptFiles keptFiles, OpenDirs openDirs) {
    this.boss = boss;
    this.workers = workers;
    this.disk = disk;
    this.gate = gate;
    this.budget = budget;
    this.channel = channel;
    this.transport = transport;
    this.keptFiles = keptFiles;
    this.openDirs = openDirs;
  }

  /** Binds and starts serving files without checking their owners (an executor serving its own files). */
  public static ShuffleServer start(ServerSettings s, AppRegistry registry, ShuffleStats stats, Supplier<SSLEngine> tls,
      Clock clock, LongSupplier nanos) throws Exception {
    return start(s, registry, stats, tls, OwnedFileOpener.unchecked(), clock, nanos);
  }

  /**
   * Binds and starts serving.
   *
   * @param tls creates a server-side engine per connection, or null for plain HTTP
   * @param opener opens every index and data file, checking its owner on a secure NodeManager
   * @throws Exception when the port cannot be bound; nothing is left running then
   */
  public static ShuffleServer start(ServerSettings s, AppRegistry registry, ShuffleStats stats, Supplier<SSLEngine> tls,
      OwnedFileOpener opener, Clock clock, LongSupplier nanos) throws Exception {
    Transport transport = Transport.choose(s.nativeTransport());
    if (transport.fallbackReason() != null) {
      LOG.warn("The shuffle service runs on Netty's NIO transport: the native epoll transport cannot load here ({})",
          transport.fallbackReason());
    }
    EventLoopGroup boss = transport.group(1, new DefaultThreadFactory("elasticam-shuffle-boss", true));
    EventLoopGroup workers = transport.group(s.ioThreads(), new DefaultThreadFactory("elasticam-shuffle-io", true));
    ExecutorService disk = new ThreadPoolExecutor(s.diskThreads(), s.diskThreads(), 60, TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(DISK_QUEUE), new DefaultThreadFactory("elasticam-shuffle-disk", true));
    ConnectionGate gate = new ConnectionGate(s.maxConnections(), s.retryAfter(), stats);
    InFlightBudget budget = new InFlightBudget(s.maxInFlightBytes());
    KeptFiles kept = new KeptFiles(s.maxOpenFiles(), opener);
    OpenDirs openDirs = new OpenDirs(s.maxOpenFiles());
    registry.onStop(kept::closeApplication);
    registry.onStop(openDirs::closeApplication);
    ServerContext sc = new ServerContext(s, registry, stats, budget, disk, clock, nanos, tls != null, opener,
        new IndexCache(s.indexCacheBytes(), opener), kept, openDirs);
    try {
      ServerBootstrap b = new ServerBootstrap().group(boss, workers)
          .channel(transport.serverChannel())
          .option(ChannelOption.SO_BACKLOG, 1024)
          .option(ChannelOption.SO_REUSEADDR, true)
          .childOption(ChannelOption.TCP_NODELAY, true)
          .childOption(ChannelOption.SO_KEEPALIVE, true)
          .childHandler(new ShuffleChannelInitializer(sc, gate, tls));
      InetSocketAddress at = s.host() == null ? new InetSocketAddress(s.port()) : new InetSocketAddress(s.host(), s.port());
      Channel ch = b.bind(at).sync().channel();
      LOG.info("Shuffle service listening on {} ({} transport{})", ch.localAddress(), transport.name(),
          tls != null ? ", TLS" : "");
      return new ShuffleServer(boss, workers, disk, gate, budget, ch, transport, kept, openDirs);
    } catch (Exception | Error e) {
      shutdown(boss, workers, disk);
      kept.close();
      openDirs.close();
      throw e;
    }
  }

  public int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  /** Whether the native epoll transport serves (else NIO). */
  public boolean nativeTransport() {
    return transport.isNative();
  }

  /** "epoll" or "NIO". */
  public String transportName() {
    return transport.name();
  }

  /** Data files kept open between fetches now. */
  public int keptOpenFiles() {
    return keptFiles.size();
  }

  /** Shuffle directories kept open between fetches now. */
  public int openDirs() {
    return openDirs.size();
  }

  public int openConnections() {
    return gate.open();
  }

  public long inFlightBytes() {
    return budget.used();
  }

  public int waitingRequests() {
    return budget.waiting();
  }

  /** Stops accepting, closes every connection, and waits (a few seconds at most) for the threads. */
  @Override
  public void close() {
    channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
    shutdown(boss, workers, disk);
    keptFiles.close();
    openDirs.close();
  }

  private static void shutdown(EventLoopGroup boss, EventLoopGroup workers, ExecutorService disk) {
    boss.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    workers.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    disk.shutdownNow();
    boss.terminationFuture().awaitUninterruptibly(5, TimeUnit.SECONDS);
    workers.terminationFuture().awaitUninterruptibly(5, TimeUnit.SECONDS);
  }
}
