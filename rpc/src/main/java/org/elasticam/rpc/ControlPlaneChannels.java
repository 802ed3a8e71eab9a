package org.elasticam.rpc;

import io.grpc.ManagedChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.okhttp.OkHttpChannelBuilder;

/**
 * How a client dials the AM's control plane: plaintext or TLS, with the control plane's message and
 * metadata limits. Executors and the AM's own session with its control plane dial the same way,
 * except that an executor may dial a plaintext control plane with gRPC's OkHttp transport.
 */
public final class ControlPlaneChannels {

  private ControlPlaneChannels() {}

  /** @param tls the context that checks the AM's certificate; null: plaintext */
  public static NettyChannelBuilder builder(String host, int port, SslContext tls) {
    NettyChannelBuilder b = withLimits(NettyChannelBuilder.forAddress(host, port));
    return tls == null ? b.usePlaintext() : b.sslContext(tls);
  }

  /**
   * An executor's channel: with {@code okHttp}, a plaintext control plane is dialled with gRPC's
   * client-only OkHttp transport, which loads about 500 classes fewer than Netty's before the
   * executor registers (BENCHMARKS.md, issue 26); TLS is always dialled as {@link #builder} does.
   */
  public static ManagedChannelBuilder<?> executorBuilder(String host, int port, SslContext tls, boolean okHttp) {
    if (tls != null || !okHttp) {
      return builder(host, port, tls);
    }
    return withLimits(OkHttpChannelBuilder.forAddress(host, port)).usePlaintext();
  }

  private static <T extends ManagedChannelBuilder<T>> T withLimits(T b) {
    return b.maxInboundMessageSize(RpcLimits.MAX_MESSAGE_BYTES).maxInboundMetadataSize(RpcLimits.MAX_METADATA_BYTES);
  }
}
