package org.elasticam.rpc;

import java.io.IOException;
import java.security.GeneralSecurityException;
import javax.net.ssl.KeyManager;
import javax.net.ssl.TrustManager;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.ssl.SSLFactory;

/**
 * The cluster's TLS material, as Hadoop's other TLS services read it: the keystore of
 * ssl-server.xml for the AM's control plane, the truststore of ssl-client.xml for executors
 * checking it (their names: {@code hadoop.ssl.server.conf}, {@code hadoop.ssl.client.conf}).
 */
public final class HadoopTls {

  private HadoopTls() {}

  public static KeyManager serverKeys(Configuration conf) throws IOException {
    KeyManager[] keys = factory(SSLFactory.Mode.SERVER, conf).getKeystoresFactory().getKeyManagers();
    if (keys == null || keys.length == 0) {
      throw new IOException(conf.get(SSLFactory.SSL_SERVER_CONF_KEY, "ssl-server.xml") + " names no keystore"
          + " (ssl.server.keystore.location)");
    }
    return keys[0];
  }

  public static TrustManager clientTrust(Configuration conf) throws IOException {
    TrustManager[] trust = factory(SSLFactory.Mode.CLIENT, conf).getKeystoresFactory().getTrustManagers();
    if (trust == null || trust.length == 0) {
      throw new IOException(conf.get(SSLFactory.SSL_CLIENT_CONF_KEY, "ssl-client.xml") + " names no truststore"
          + " (ssl.client.truststore.location)");
    }
    return trust[0];
  }

  private static SSLFactory factory(SSLFactory.Mode mode, Configuration conf) throws IOException {
    SSLFactory f = new SSLFactory(mode, conf);
    try {
      f.init();
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot load the TLS " + (mode == SSLFactory.Mode.SERVER ? "keystore" : "truststore")
          + ": " + e.getMessage(), e);
    }
    return f;
  }
}
