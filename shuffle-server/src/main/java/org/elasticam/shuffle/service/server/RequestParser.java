package org.elasticam.shuffle.service.server;

import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import java.util.Map;
import org.elasticam.shuffle.protocol.FetchRequest;
import org.elasticam.shuffle.protocol.QueryString;
import org.elasticam.shuffle.protocol.RegisterRequest;
import org.elasticam.shuffle.protocol.RemoveShuffleRequest;
import org.elasticam.shuffle.protocol.RequestTooLongException;
import org.elasticam.shuffle.protocol.ShuffleProtocol;

/**
 * Turns a decoded HTTP request head into a {@link ShuffleCall}: a fetch, a registration, or the
 * status that answers it (400 malformed, 404 no such endpoint, 405 wrong method, 414 too long, 431
 * headers too large). A pure function of the request; never throws.
 */
final class RequestParser {

  private RequestParser() {}

  static ShuffleCall parse(HttpRequest req, long arrivedNanos) {
    try {
      return parseOrReject(req, arrivedNanos);
    } catch (RequestTooLongException e) {
      return new ShuffleCall.Rejected(Rejection.closing(414, e.getMessage()), arrivedNanos);
    } catch (IllegalArgumentException e) {
      return new ShuffleCall.Rejected(Rejection.of(400, e.getMessage()), arrivedNanos);
    }
  }

  private static ShuffleCall parseOrReject(HttpRequest req, long arrivedNanos) {
    DecoderResult result = req.decoderResult();
    if (result.isFailure()) {
      return new ShuffleCall.Rejected(decoderFailure(result.cause()), arrivedNanos);
    }
    boolean keepAlive = HttpUtil.isKeepAlive(req);
    if (HttpUtil.isTransferEncodingChunked(req) || HttpUtil.getContentLength(req, 0L) != 0) {
      return new ShuffleCall.Rejected(Rejection.closing(400, "requests carry no body"), arrivedNanos);
    }
    String uri = req.uri();
    int q = uri.indexOf('?');
    String path = q < 0 ? uri : uri.substring(0, q);
    String query = q < 0 ? "" : uri.substring(q + 1);
    HttpMethod expected = path.equals(ShuffleProtocol.FETCH_PATH) ? HttpMethod.GET
        : path.equals(ShuffleProtocol.REGISTER_PATH) || path.equals(ShuffleProtocol.REMOVE_SHUFFLE_PATH)
        ? HttpMethod.POST : null;
    if (expected == null) {
      return new ShuffleCall.Rejected(new Rejection(404, "no such endpoint", keepAlive), arrivedNanos);
    }
    if (!req.method().equals(expected)) {
      return new ShuffleCall.Rejected(new Rejection(405, path + " takes " + expected + " only", keepAlive),
          arrivedNanos);
    }
    Map<String, String> params = QueryString.parse(query);
    FetchRequest.timestamp(params);
    ShuffleCall.Signed signed = new ShuffleCall.Signed(expected.name(), path, params,
        req.headers().get(ShuffleProtocol.SIGNATURE_HEADER));
    if (expected == HttpMethod.GET) {
      return new ShuffleCall.Fetch(FetchRequest.fromParams(params), signed, keepAlive, arrivedNanos);
    }
    if (path.equals(ShuffleProtocol.REMOVE_SHUFFLE_PATH)) {
      return new ShuffleCall.RemoveShuffle(RemoveShuffleRequest.fromParams(params), signed, keepAlive, arrivedNanos);
    }
    return new ShuffleCall.Register(RegisterRequest.fromParams(params), signed, keepAlive, arrivedNanos);
  }

  private static Rejection decoderFailure(Throwable cause) {
    if (cause instanceof TooLongHttpLineException) {
      return Rejection.closing(414, "request line over " + ShuffleProtocol.MAX_REQUEST_LINE + " bytes");
    }
    if (cause instanceof TooLongHttpHeaderException) {
      return Rejection.closing(431, "request headers over " + ShuffleProtocol.MAX_HEADER_BYTES + " bytes");
    }
    return Rejection.closing(400, "malformed HTTP request");
  }
}
