package org.elasticam.shuffle.service.server;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.DefaultFileRegion;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.List;
import java.util.function.Consumer;
import org.elasticam.shuffle.protocol.BlockHeader;
import org.elasticam.shuffle.service.server.BlockResolver.BlockSlice;
import org.elasticam.shuffle.service.server.BlockResolver.ResolvedFetch;

/**
 * Writes a fetch's 200: the head, then each block's header and bytes, one block at a time — the
 * next block is written only when the previous one has gone to the socket, so a slow reader holds
 * one block's worth of the connection's memory and its own share of the in-flight budget, which
 * is released block by block. Plain connections send each block as a lazily opened file region
 * (zero-copy); TLS ones as lazily opened chunks. A write that fails closes the connection: after a
 * 200 head there is no other way to tell the client.
 */
final class ResponseStreamer {

  private final ChannelHandlerContext ctx;
  private final List<BlockSlice> blocks;
  private final boolean tls;
  private final InFlightBudget budget;
  private final ShuffleStats stats;
  private final Consumer<Boolean> done;
  private long unreleased;
  private int next;

  private ResponseStreamer(ChannelHandlerContext ctx, ResolvedFetch fetch, boolean tls, InFlightBudget budget,
      ShuffleStats stats, Consumer<Boolean> done) {
    this.ctx = ctx;
    this.blocks = fetch.blocks();
    this.tls = tls;
    this.budget = budget;
    this.stats = stats;
    this.done = done;
    this.unreleased = fetch.responseBytes();
  }

  /**
   * Streams an admitted response; {@code done} gets true when all of it was written. The budget
   * taken for {@code fetch.responseBytes()} is released whatever happens.
   */
  static void stream(ChannelHandlerContext ctx, ResolvedFetch fetch, boolean keepAlive, boolean tls,
      InFlightBudget budget, ShuffleStats stats, Consumer<Boolean> done) {
    ResponseStreamer s = new ResponseStreamer(ctx, fetch, tls, budget, stats, done);
    if (!ctx.channel().isActive()) {
      s.finish(false);
      return;
    }
    ctx.write(Responses.fetchHead(fetch.responseBytes(), fetch.blocks().size(), keepAlive));
    s.pump();
  }

  /** Writes blocks while their writes complete at once; otherwise continues from the write's listener. */
  private void pump() {
    while (next < blocks.size()) {
      BlockSlice b = blocks.get(next++);
      ChannelFuture f = writeBlock(b);
      if (!f.isDone()) {
        f.addListener(x -> {
          if (written((ChannelFuture) x, b)) {
            pump();
          }
        });
        return;
      }
      if (!written(f, b)) {
        return;
      }
    }
    ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(f -> finish(f.isSuccess()));
  }

  private ChannelFuture writeBlock(BlockSlice b) {
    long len = b.header().length();
    if (len == 0) {
      return ctx.writeAndFlush(Unpooled.wrappedBuffer(b.header().toBytes()));
    }
    ctx.write(Unpooled.wrappedBuffer(b.header().toBytes()));
    Object body = tls ? new LazyChunkedFile(b.file(), b.offset(), len)
        : new DefaultFileRegion(b.file().toFile(), b.offset(), len);
    return ctx.writeAndFlush(body);
  }

  /** Accounts for one block's write; false (and the response ended) when it failed. */
  private boolean written(ChannelFuture f, BlockSlice b) {
    long bytes = BlockHeader.SIZE + b.header().length();
    unreleased -= bytes;
    budget.release(bytes);
    if (!f.isSuccess()) {
      finish(false);
      return false;
    }
    stats.blockSent(b.header().length());
    return true;
  }

  private void finish(boolean ok) {
    if (unreleased > 0) {
      budget.release(unreleased);
      unreleased = 0;
    }
    if (!ok) {
      ctx.close();
    }
    done.accept(ok);
  }
}
