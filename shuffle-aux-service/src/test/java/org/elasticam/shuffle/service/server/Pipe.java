package org.elasticam.shuffle.service.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.FileRegion;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The real pipeline on an EmbeddedChannel: bytes in, responses out. */
final class Pipe implements AutoCloseable {

  final EmbeddedChannel channel = new EmbeddedChannel();
  private final ByteArrayOutputStream written = new ByteArrayOutputStream();

  Pipe(ServerContext sc, int maxConnections) {
    ShuffleChannelInitializer.configure(channel.pipeline(), sc,
        new ConnectionGate(maxConnections, sc.settings().retryAfter(), sc.stats()), null);
    channel.pipeline().fireChannelActive();
  }

  Pipe(ServerContext sc) {
    this(sc, 64);
  }

  /** Sends raw bytes, runs what they caused, and returns every response written so far. */
  List<Raw.Response> send(String raw) {
    return send(raw.getBytes(StandardCharsets.ISO_8859_1));
  }

  List<Raw.Response> send(byte[] raw) {
    feed(raw);
    return Raw.parse(written.toByteArray());
  }

  /** Sends raw bytes and runs what they caused; returns everything written back so far. */
  byte[] feed(byte[] raw) {
    if (channel.isOpen()) {
      channel.writeInbound(Unpooled.wrappedBuffer(raw));
    }
    drain();
    return written.toByteArray();
  }

  /** Runs queued tasks and collects output until nothing moves. */
  void drain() {
    for (int i = 0; i < 100; i++) {
      channel.runPendingTasks();
      if (!collect()) {
        return;
      }
    }
  }

  private boolean collect() {
    boolean any = false;
    for (Object o = channel.readOutbound(); o != null; o = channel.readOutbound()) {
      any = true;
      if (o instanceof ByteBuf b) {
        byte[] a = new byte[b.readableBytes()];
        b.readBytes(a);
        written.writeBytes(a);
        b.release();
      } else if (o instanceof FileRegion r) {
        transfer(r);
      } else {
        throw new AssertionError("unexpected outbound message " + o.getClass());
      }
    }
    return any;
  }

  private void transfer(FileRegion r) {
    try {
      WritableByteChannel out = Channels.newChannel(written);
      while (r.transferred() < r.count()) {
        r.transferTo(out, r.transferred());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      r.release();
    }
  }

  boolean open() {
    return channel.isOpen();
  }

  @Override
  public void close() {
    channel.finishAndReleaseAll();
  }
}
