package org.elasticam.shuffle.service.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * HTTP objects in, {@link ShuffleCall}s out. Request heads are parsed; body content (there should
 * be none) is dropped, and released by the base class like every input.
 */
final class RequestDecoder extends MessageToMessageDecoder<HttpObject> {

  private final LongSupplier nanos;

  RequestDecoder(LongSupplier nanos) {
    this.nanos = nanos;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, HttpObject msg, List<Object> out) {
    if (msg instanceof HttpRequest) {
      out.add(RequestParser.parse((HttpRequest) msg, nanos.getAsLong()));
    }
  }
}
