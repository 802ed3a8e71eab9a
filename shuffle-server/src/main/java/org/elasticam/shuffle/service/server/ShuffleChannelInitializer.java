package org.elasticam.shuffle.service.server;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.net.ssl.SSLEngine;
import org.elasticam.shuffle.protocol.ShuffleProtocol;

/**
 * Each connection's pipeline, inbound top to bottom:
 *
 * <pre>
 * [tls]      SslHandler (when TLS is on)
 * http       HttpServerCodec: request line 4096, headers 8192 bytes
 * idle       IdleStateHandler: no read and no write progress for the idle timeout
 * chunked    ChunkedWriteHandler: TLS responses' file chunks, read only while writable
 * decoder    RequestDecoder: HTTP request head to ShuffleCall
 * gate       ConnectionGate: 429 past the connection limit
 * handler    ShuffleRequestHandler
 * </pre>
 */
final class ShuffleChannelInitializer extends ChannelInitializer<SocketChannel> {

  private final ServerContext sc;
  private final ConnectionGate gate;
  private final Supplier<SSLEngine> tls;

  ShuffleChannelInitializer(ServerContext sc, ConnectionGate gate, Supplier<SSLEngine> tls) {
    this.sc = sc;
    this.gate = gate;
    this.tls = tls;
  }

  @Override
  protected void initChannel(SocketChannel ch) {
    configure(ch.pipeline(), sc, gate, tls);
  }

  /** The pipeline, for a socket channel or a test's EmbeddedChannel. */
  static void configure(ChannelPipeline p, ServerContext sc, ConnectionGate gate, Supplier<SSLEngine> tls) {
    if (tls != null) {
      SSLEngine engine = tls.get();
      engine.setUseClientMode(false);
      p.addLast("tls", new SslHandler(engine));
    }
    p.addLast("http", new HttpServerCodec(ShuffleProtocol.MAX_REQUEST_LINE, ShuffleProtocol.MAX_HEADER_BYTES, 8192));
    p.addLast("idle", new IdleStateHandler(true, 0, 0, sc.settings().idleTimeout().toMillis(), TimeUnit.MILLISECONDS));
    p.addLast("chunked", new ChunkedWriteHandler());
    p.addLast("decoder", new RequestDecoder(sc.nanos()));
    p.addLast("gate", gate);
    p.addLast("handler", new ShuffleRequestHandler(sc));
  }
}
