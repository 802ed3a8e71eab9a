package org.elasticam.shuffle.service.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.stream.ChunkedInput;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * A file region read in chunks for TLS (which cannot send a file zero-copy). Like the plain path's
 * lazily opened file regions it opens its file only when the first chunk is asked for, so queued
 * blocks hold no file handle, and closes it when done or discarded. It opens through the
 * {@link OwnedFileOpener}, as every other read of a map output does.
 */
final class LazyChunkedFile implements ChunkedInput<ByteBuf> {

  private static final int CHUNK = 64 * 1024;

  private final OwnedFileOpener opener;
  private final String user;
  private final Path path;
  private final long start;
  private final long length;
  private FileChannel file;
  private long offset;
  private boolean closed;

  LazyChunkedFile(OwnedFileOpener opener, String user, Path path, long start, long length) {
    this.opener = opener;
    this.user = user;
    this.path = path;
    this.start = start;
    this.length = length;
  }

  @Override
  public boolean isEndOfInput() {
    return offset >= length || closed;
  }

  @Override
  public void close() throws IOException {
    closed = true;
    if (file != null) {
      file.close();
      file = null;
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
    if (file == null) {
      file = opener.open(path, user);
    }
    int n = (int) Math.min(CHUNK, length - offset);
    ByteBuf buf = allocator.heapBuffer(n);
    boolean ok = false;
    try {
      while (buf.readableBytes() < n) {
        int got = buf.writeBytes(file, start + offset + buf.readableBytes(), n - buf.readableBytes());
        if (got < 0) {
          throw new IOException(path + " ended " + (length - offset - buf.readableBytes()) + " bytes early");
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
