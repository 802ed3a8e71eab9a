package org.elasticam.rpc;

import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManager;

/**
 * TLS for the AM's control plane. The key and trust managers come from the caller — in the AM and
 * executors, from Hadoop's ssl-server.xml and ssl-client.xml, as the cluster's other TLS services
 * use — so this module needs no Hadoop. Executors check the AM's certificate against the host they
 * dial, as HTTPS does.
 */
public final class ControlPlaneTls {

  private ControlPlaneTls() {}

  public static SslContext server(KeyManager keys) throws SSLException {
    return GrpcSslContexts.configure(SslContextBuilder.forServer(keys)).build();
  }

  public static SslContext client(TrustManager trust) throws SSLException {
    return GrpcSslContexts.forClient().trustManager(trust).build();
  }
}
