package org.elasticam.am.driver;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * A cluster's TLS files as an operator sets them up: a keystore with a certificate for 127.0.0.1
 * and localhost, a truststore holding that certificate (both made by the JDK's keytool), and
 * Hadoop's ssl-server.xml and ssl-client.xml naming them — as classpath resources of their own
 * names, which {@link #conf()} points Hadoop at.
 */
public final class ClusterTlsFiles {

  private static final String PASSWORD = "changeit";
  private final String serverResource;
  private final String clientResource;

  private ClusterTlsFiles(String serverResource, String clientResource) {
    this.serverResource = serverResource;
    this.clientResource = clientResource;
  }

  /** @param classpathDir a directory on the test classpath (target/test-classes) */
  public static ClusterTlsFiles create(Path dir, Path classpathDir) throws IOException, InterruptedException {
    return create(dir, classpathDir, List.of());
  }

  /** @param moreServerKeys further keys of ssl-server.xml: name, value, name, value… */
  public static ClusterTlsFiles create(Path dir, Path classpathDir, List<String> moreServerKeys)
      throws IOException, InterruptedException {
    Path keystore = dir.resolve("am.p12");
    Path cert = dir.resolve("am.crt");
    Path truststore = dir.resolve("trust.p12");
    keytool("-genkeypair", "-alias", "am", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
        "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2", "-keystore", keystore.toString(),
        "-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD);
    keytool("-exportcert", "-alias", "am", "-keystore", keystore.toString(), "-storepass", PASSWORD, "-file",
        cert.toString());
    keytool("-importcert", "-noprompt", "-alias", "am", "-file", cert.toString(), "-keystore", truststore.toString(),
        "-storetype", "PKCS12", "-storepass", PASSWORD);
    String id = Long.toString(System.nanoTime());
    String server = "ssl-server-" + id + ".xml";
    String client = "ssl-client-" + id + ".xml";
    List<String> serverKeys = new java.util.ArrayList<>(List.of(
        "ssl.server.keystore.location", keystore.toString(), "ssl.server.keystore.type", "pkcs12",
        "ssl.server.keystore.password", PASSWORD, "ssl.server.keystore.keypassword", PASSWORD));
    serverKeys.addAll(moreServerKeys);
    Files.writeString(classpathDir.resolve(server), site(serverKeys));
    Files.writeString(classpathDir.resolve(client), site(List.of(
        "ssl.client.truststore.location", truststore.toString(), "ssl.client.truststore.type", "pkcs12",
        "ssl.client.truststore.password", PASSWORD)));
    return new ClusterTlsFiles(server, client);
  }

  /** Hadoop's configuration with this cluster's ssl-server.xml and ssl-client.xml. */
  public Configuration conf() {
    Configuration c = new Configuration(false);
    c.set("hadoop.ssl.server.conf", serverResource);
    c.set("hadoop.ssl.client.conf", clientResource);
    return c;
  }

  private static String site(List<String> keyValues) {
    StringBuilder b = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    for (int i = 0; i < keyValues.size(); i += 2) {
      b.append("<property><name>").append(keyValues.get(i)).append("</name><value>").append(keyValues.get(i + 1))
          .append("</value></property>\n");
    }
    return b.append("</configuration>\n").toString();
  }

  private static void keytool(String... args) throws IOException, InterruptedException {
    List<String> cmd = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool")
        .toString()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (p.waitFor() != 0) {
      throw new IOException("keytool " + args[0] + " failed: " + out);
    }
  }
}
