package org.elasticam.shuffle.service.server;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.AttributeKey;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The limit on open connections: the connection that would exceed it is answered 429 with
 * Retry-After on its first request, then closed; it never counts against the limit. Shared by all
 * channels.
 */
@Sharable
final class ConnectionGate extends ChannelDuplexHandler {

  private static final AttributeKey<Boolean> ADMITTED = AttributeKey.valueOf("elasticam.shuffle.admitted");

  private final int max;
  private final Duration retryAfter;
  private final ShuffleStats stats;
  private final AtomicInteger open = new AtomicInteger();

  ConnectionGate(int max, Duration retryAfter, ShuffleStats stats) {
    this.max = max;
    this.retryAfter = retryAfter;
    this.stats = stats;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    stats.connectionOpened();
    boolean admitted = open.incrementAndGet() <= max;
    if (!admitted) {
      open.decrementAndGet();
    }
    ctx.channel().attr(ADMITTED).set(admitted);
    super.channelActive(ctx);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    if (Boolean.TRUE.equals(ctx.channel().attr(ADMITTED).get())) {
      super.channelRead(ctx, msg);
      return;
    }
    // Calls hold no buffers: nothing to release.
    ctx.channel().config().setAutoRead(false);
    if (ctx.channel().attr(ADMITTED).getAndSet(null) != null) {
      stats.connectionRejected();
      stats.responded(429, 0);
      Responses.text(ctx, Rejection.closing(429, "too many connections; retry later"), retryAfter)
          .addListener(f -> ctx.close());
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (Boolean.TRUE.equals(ctx.channel().attr(ADMITTED).getAndSet(null))) {
      open.decrementAndGet();
    }
    stats.connectionClosed();
    super.channelInactive(ctx);
  }

  int open() {
    return open.get();
  }
}
