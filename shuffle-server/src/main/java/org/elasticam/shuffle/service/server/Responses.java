package org.elasticam.shuffle.service.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.elasticam.shuffle.protocol.ShuffleProtocol;

/** Builds and writes responses: short text for every status but a fetch's 200. Stateless. */
final class Responses {

  private Responses() {}

  /** Writes a text response; closes the connection afterwards unless it stays alive. */
  static ChannelFuture text(ChannelHandlerContext ctx, Rejection r, Duration retryAfter) {
    ByteBuf body = Unpooled.copiedBuffer(r.message() + "\n", StandardCharsets.UTF_8);
    FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(r.status()),
        body);
    res.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=UTF-8");
    HttpUtil.setContentLength(res, body.readableBytes());
    if (r.status() == 429 || r.status() == 503) {
      res.headers().set(HttpHeaderNames.RETRY_AFTER, Long.toString(Math.max(1, retryAfter.getSeconds())));
    }
    if (r.status() == 405) {
      res.headers().set(HttpHeaderNames.ALLOW, "GET, POST");
    }
    HttpUtil.setKeepAlive(res, r.keepAlive());
    return ctx.writeAndFlush(res);
  }

  /** The head of a fetch's 200: Content-Length known before the first block. */
  static HttpResponse fetchHead(long contentLength, int blocks, boolean keepAlive) {
    HttpResponse res = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
    res.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_OCTET_STREAM);
    res.headers().set(ShuffleProtocol.BLOCKS_HEADER, blocks);
    HttpUtil.setContentLength(res, contentLength);
    HttpUtil.setKeepAlive(res, keepAlive);
    return res;
  }
}
