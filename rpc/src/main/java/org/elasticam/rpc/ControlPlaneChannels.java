package org.elasticam.rpc;

import io.grpc.ManagedChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.okhttp.OkHttpChannelBuilder;

/**
 * How a client dials the AM's control plane: plaintext or TLS, with the control plane's message and
 * metadata limits. Executors and the AM's own session with its control plane dial the same way.
 */
public final class ControlPlaneChannels {

  private ControlPlaneChannels() {}

  /** @param tls the context that checks the AM's certificate; null: plaintext */
  public static NettyChannelBuilder builder(String host, int port, SslContext tls) {
    NettyChannelBuilder b = NettyChannelBuilder.forAddress(host, port)
        .maxInboundMessageSize(RpcLimits.MAX_MESSAGE_BYTES)
        .maxInboundMetadataSize(RpcLimits.MAX_METADATA_BYTES);
    return tls == null ? b.usePlaintext() : b.sslContext(tls);
  }

  /** A plaintext client on gRPC's OkHttp transport: no Netty to load, for a process that only dials. */
  public static ManagedChannelBuilder<?> plaintextOkHttp(String host, int port) {
    return OkHttpChannelBuilder.forAddress(host, port)
        .maxInboundMessageSize(RpcLimits.MAX_MESSAGE_BYTES)
        .maxInboundMetadataSize(RpcLimits.MAX_METADATA_BYTES)
        .usePlaintext();
  }
}
