package org.elasticam.shuffle.service.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.stream.ChunkedInput;
import java.io.IOException;
import org.elasticam.shuffle.service.server.KeptFiles.KeptFile;

/**
 * A block of a kept data file read in chunks for TLS (which cannot send a file zero-copy), with
 * positional reads of the shared descriptor; lets the file go when done or discarded.
 */
final class KeptFileChunks implements ChunkedInput<ByteBuf> {

  private static final int CHUNK = 64 * 1024;

  private final KeptFile file;
  private final long start;
  private final long length;
  private long offset;
  private boolean closed;

  KeptFileChunks(KeptFile file, long start, long length) {
    this.file = file.retain();
    this.start = start;
    this.length = length;
  }

  @Override
  public boolean isEndOfInput() {
    return offset >= length || closed;
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      file.release();
    }
  }

  @Override
  @Deprecated
  public ByteBuf readChunk(ChannelHandlerContext ctx) throws IOException {
    return readChunk(ctx.alloc());
  }

  @Override
  public ByteBuf readChunk(ByteBufAllocator allocator) throws IOException {
    if (isEndOfInput()) {
      return null;
    }
    int n = (int) Math.min(CHUNK, length - offset);
    ByteBuf buf = allocator.heapBuffer(n);
    boolean ok = false;
    try {
      while (buf.readableBytes() < n) {
        int got = buf.writeBytes(file.channel(), start + offset + buf.readableBytes(), n - buf.readableBytes());
        if (got < 0) {
          throw new IOException(file.path() + " ended " + (length - offset - buf.readableBytes()) + " bytes early");
        }
      }
      offset += n;
      ok = true;
      return buf;
    } finally {
      if (!ok) {
        buf.release();
      }
    }
  }

  @Override
  public long length() {
    return length;
  }

  @Override
  public long progress() {
    return offset;
  }
}
