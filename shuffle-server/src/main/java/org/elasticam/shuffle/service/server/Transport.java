package org.elasticam.shuffle.service.server;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.util.concurrent.ThreadFactory;

/**
 * The event loops and channels the server runs on: Netty's native epoll transport where its
 * library loads, else NIO. Epoll costs less per write and per wake-up than NIO's selector
 * (BENCHMARKS.md: most on 64 KiB blocks, where a response is many writes). NIO is what a JVM can
 * always run; the shaded jar carries the library for Linux x86_64 and aarch64, renamed with the
 * jar's relocation prefix as Netty's {@code NativeLibraryLoader} expects of a shaded copy.
 * Chosen once per server.
 */
final class Transport {

  /** What the service runs on, and why when it is not what the settings asked for. */
  private final String name;
  private final String fallbackReason;
  private final Groups groups;
  private final Class<? extends ServerChannel> serverChannel;
  private final boolean isNative;

  private interface Groups {
    EventLoopGroup create(int threads, ThreadFactory threadFactory);
  }

  private Transport(String name, String fallbackReason, Groups groups, Class<? extends ServerChannel> serverChannel,
      boolean isNative) {
    this.name = name;
    this.fallbackReason = fallbackReason;
    this.groups = groups;
    this.serverChannel = serverChannel;
    this.isNative = isNative;
  }

  /**
   * Epoll when {@code nativeWanted} and its library loads here; NIO otherwise, with the reason
   * (the settings, or why the library did not load) in {@link #fallbackReason()}.
   */
  static Transport choose(boolean nativeWanted) {
    if (!nativeWanted) {
      return nio(null);
    }
    Throwable cause;
    try {
      cause = Native.unavailability();
    } catch (LinkageError e) {
      cause = e;
    }
    return cause == null ? Native.epoll() : nio(describe(cause));
  }

  static Transport nio(String fallbackReason) {
    return new Transport("NIO", fallbackReason, NioEventLoopGroup::new, NioServerSocketChannel.class, false);
  }

  /** The failure and its causes, each once, on one line. */
  static String describe(Throwable cause) {
    StringBuilder sb = new StringBuilder();
    for (Throwable t = cause; t != null && sb.length() < 1000; t = t.getCause() == t ? null : t.getCause()) {
      sb.append(sb.length() == 0 ? "" : "; caused by ").append(t);
    }
    return sb.toString();
  }

  /** "epoll" or "NIO". */
  String name() {
    return name;
  }

  boolean isNative() {
    return isNative;
  }

  /** Why NIO runs although the native transport was asked for; null when nothing fell back. */
  String fallbackReason() {
    return fallbackReason;
  }

  EventLoopGroup group(int threads, ThreadFactory threadFactory) {
    return groups.create(threads, threadFactory);
  }

  Class<? extends ServerChannel> serverChannel() {
    return serverChannel;
  }

  /** Everything that touches epoll's classes, loaded only when the native transport is asked for. */
  private static final class Native {

    private Native() {}

    static Throwable unavailability() {
      return Epoll.isAvailable() ? null : Epoll.unavailabilityCause();
    }

    static Transport epoll() {
      return new Transport("epoll", null, EpollEventLoopGroup::new, EpollServerSocketChannel.class, true);
    }
  }
}
