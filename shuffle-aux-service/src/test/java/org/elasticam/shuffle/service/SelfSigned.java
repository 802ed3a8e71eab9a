package org.elasticam.shuffle.service;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A self-signed certificate for 127.0.0.1 and localhost, made by the JDK's keytool (no Bouncy
 * Castle), with server and client SSL contexts around it.
 */
public final class SelfSigned {

  public static final String PASSWORD = "changeit";

  public final Path keystore;

  private SelfSigned(Path keystore) {
    this.keystore = keystore;
  }

  public static SelfSigned create(Path dir) throws IOException, InterruptedException {
    Path ks = dir.resolve("shuffle-test.p12");
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Process p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "shuffle", "-keyalg", "EC",
        "-groupname", "secp256r1", "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2",
        "-keystore", ks.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD)
        .redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (p.waitFor() != 0) {
      throw new IOException("keytool failed: " + out);
    }
    return new SelfSigned(ks);
  }

  private KeyStore load() throws IOException {
    try (InputStream in = Files.newInputStream(keystore)) {
      KeyStore k = KeyStore.getInstance("PKCS12");
      k.load(in, PASSWORD.toCharArray());
      return k;
    } catch (java.security.GeneralSecurityException e) {
      throw new IOException(e);
    }
  }

  public SSLContext server() throws Exception {
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(load(), PASSWORD.toCharArray());
    SSLContext c = SSLContext.getInstance("TLS");
    c.init(kmf.getKeyManagers(), null, null);
    return c;
  }

  /** Trusts exactly this certificate. */
  public SSLContext client() throws Exception {
    Certificate cert = load().getCertificate("shuffle");
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("shuffle", cert);
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext c = SSLContext.getInstance("TLS");
    c.init(null, tmf.getTrustManagers(), null);
    return c;
  }
}
