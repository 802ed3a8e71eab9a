package org.elasticam.shuffle.service.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.IOException;
import java.util.List;
import java.util.function.Consumer;
import org.elasticam.shuffle.protocol.BlockHeader;
import org.elasticam.shuffle.service.server.BlockResolver.BlockSlice;
import org.elasticam.shuffle.service.server.BlockResolver.ResolvedFetch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a fetch's 200: the head, then each block's header and bytes, one write at a time — the
 * next is written only when the previous one has gone to the socket, so a slow reader holds one
 * write's worth of the connection's memory and its own share of the in-flight budget, which is
 * released write by write. A large block goes as a file region of its kept data file (zero-copy on
 * plain connections, chunks under TLS). Small blocks are read into one buffer with their headers,
 * up to {@link #BATCH_BYTES}, and go in a single socket write: for blocks of a few KiB the
 * per-write cost of the socket, not the copy, is what limits a server. Reading a small block from
 * the page cache blocks the event loop no longer than sending a region would. A write or read
 * that fails closes the connection: after a 200 head there is no other way to tell the client.
 * Every byte is read from the descriptors the resolver checked ({@link KeptFiles}), which the
 * response holds until it ends.
 */
final class ResponseStreamer {

  private static final Logger LOG = LoggerFactory.getLogger(ResponseStreamer.class);

  /** Blocks up to this size are copied into batches; larger ones are sent as file regions. */
  static final int SMALL_BLOCK = 16 * 1024;

  /** The most bytes one batch of small blocks holds. */
  static final int BATCH_BYTES = 256 * 1024;

  private final ChannelHandlerContext ctx;
  private final ResolvedFetch fetch;
  private final List<BlockSlice> blocks;
  private final boolean tls;
  private final InFlightBudget budget;
  private final ShuffleStats stats;
  private final Consumer<Boolean> done;
  private long unreleased;
  private int next;

  private ResponseStreamer(ChannelHandlerContext ctx, ResolvedFetch fetch, ServerContext sc, Consumer<Boolean> done) {
    this.ctx = ctx;
    this.fetch = fetch;
    this.blocks = fetch.blocks();
    this.tls = sc.tls();
    this.budget = sc.budget();
    this.stats = sc.stats();
    this.done = done;
    this.unreleased = fetch.responseBytes();
  }

  /**
   * Streams an admitted response; {@code done} gets true when all of it was written. The budget
   * taken for {@code fetch.responseBytes()} is released, and the fetch's files let go, whatever
   * happens.
   */
  static void stream(ChannelHandlerContext ctx, ResolvedFetch fetch, boolean keepAlive, ServerContext sc,
      Consumer<Boolean> done) {
    ResponseStreamer s = new ResponseStreamer(ctx, fetch, sc, done);
    if (!ctx.channel().isActive()) {
      s.finish(false);
      return;
    }
    ctx.write(Responses.fetchHead(fetch.responseBytes(), fetch.blocks().size(), keepAlive));
    s.pump();
  }

  /** Writes while writes complete at once; otherwise continues from the write's listener. */
  private void pump() {
    while (next < blocks.size()) {
      int from = next;
      ChannelFuture f;
      long bytes;
      try {
        if (blocks.get(from).header().length() > SMALL_BLOCK) {
          f = writeRegion(blocks.get(next));
          next++;
        } else {
          f = writeBatch();
        }
      } catch (IOException e) {
        BlockSlice at = blocks.get(Math.min(next, blocks.size() - 1));
        LOG.warn("Cannot read shuffle block {} of {}: {}", at.header(), at.file().path(), e.toString());
        finish(false);
        return;
      }
      bytes = wireBytes(from, next);
      if (!f.isDone()) {
        int to = next;
        f.addListener(x -> {
          if (written((ChannelFuture) x, from, to, bytes)) {
            pump();
          }
        });
        return;
      }
      if (!written(f, from, next, bytes)) {
        return;
      }
    }
    ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(f -> finish(f.isSuccess()));
  }

  private ChannelFuture writeRegion(BlockSlice b) {
    long len = b.header().length();
    Object body = tls ? new KeptFileChunks(b.file(), b.offset(), len) : new KeptFileRegion(b.file(), b.offset(), len);
    ctx.write(Unpooled.wrappedBuffer(b.header().toBytes()));
    return ctx.writeAndFlush(body);
  }

  /** Small blocks from {@code next} on, headers and bytes, in one buffer of at most BATCH_BYTES (or one block). */
  private ChannelFuture writeBatch() throws IOException {
    int end = next;
    long size = 0;
    while (end < blocks.size() && blocks.get(end).header().length() <= SMALL_BLOCK
        && (end == next || size + BlockHeader.SIZE + blocks.get(end).header().length() <= BATCH_BYTES)) {
      size += BlockHeader.SIZE + blocks.get(end).header().length();
      end++;
    }
    ByteBuf buf = ctx.alloc().directBuffer((int) size);
    try {
      for (; next < end; next++) {
        BlockSlice b = blocks.get(next);
        buf.writeBytes(b.header().toBytes());
        readFully(buf, b);
      }
    } catch (IOException | RuntimeException e) {
      buf.release();
      throw e instanceof IOException ? (IOException) e : new IOException(e);
    }
    return ctx.writeAndFlush(buf);
  }

  private static void readFully(ByteBuf buf, BlockSlice b) throws IOException {
    long at = b.offset();
    long left = b.header().length();
    while (left > 0) {
      int n = buf.writeBytes(b.file().channel(), at, (int) left);
      if (n < 0) {
        throw new IOException(b.file().path() + " ended " + left + " bytes early");
      }
      at += n;
      left -= n;
    }
  }

  private long wireBytes(int from, int to) {
    long n = 0;
    for (int i = from; i < to; i++) {
      n += BlockHeader.SIZE + blocks.get(i).header().length();
    }
    return n;
  }

  /** Accounts for one write of blocks {@code from..to-1}; false (and the response ended) when it failed. */
  private boolean written(ChannelFuture f, int from, int to, long bytes) {
    unreleased -= bytes;
    budget.release(bytes);
    if (!f.isSuccess()) {
      finish(false);
      return false;
    }
    for (int i = from; i < to; i++) {
      stats.blockSent(blocks.get(i).header().length());
    }
    return true;
  }

  private void finish(boolean ok) {
    fetch.release();
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
