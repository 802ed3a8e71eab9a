package org.elasticam.am.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationAccessType;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.elasticam.am.driver.ClusterTlsFiles;
import org.elasticam.rpc.HadoopTls;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live page behind the front an AM's container gives it, with YARN's own AmIpFilter: the
 * proxy host is a standalone proxy's address ({@code yarn.web-proxy.address}), so the test
 * chooses whether its own address, 127.0.0.1, is the proxy's.
 */
class LivePageFrontTest {

  private static final ApplicationId APP = ApplicationId.newInstance(1, 1);
  private static final String PROXY_BASE = "/proxy/" + APP;
  private static final String SECRET_SETTING = "elasticam.executor.cores";

  private final List<StatusServer> servers = new ArrayList<>();

  @AfterEach
  void stop() {
    servers.forEach(StatusServer::close);
  }

  private StatusServer serve(Configuration conf, Map<ApplicationAccessType, String> acls) throws Exception {
    StatusServer s = new StatusServer(LivePageFront.inContainer(conf, "127.0.0.1", APP, "owner", acls, PROXY_BASE),
        new StatusServer.Source() {
          @Override
          public Map<String, Object> snapshot() {
            return Map.of("state", "RUNNING");
          }

          @Override
          public List<String> eventLines() {
            return List.of("{\"ts\":1000,\"event\":\"app_start\",\"app_id\":\"" + APP + "\",\"attempt\":1,"
                + "\"conf\":{\"" + SECRET_SETTING + "\":\"2\"}}");
          }
        });
    servers.add(s);
    return s;
  }

  private static Configuration proxyAt(String address) {
    Configuration c = new Configuration(false);
    c.set(YarnConfiguration.PROXY_ADDRESS, address);
    return c;
  }

  private static Configuration withAcls(Configuration c) {
    c.setBoolean(YarnConfiguration.YARN_ACL_ENABLE, true);
    // The default, *, makes everyone an admin.
    c.set(YarnConfiguration.YARN_ADMIN_ACL, "yarn-admin");
    return c;
  }

  private static HttpResponse<String> get(HttpClient http, URI url, String proxyUser) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(url);
    if (proxyUser != null) {
      b.header("Cookie", "proxy-user=" + proxyUser);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> get(URI url, String proxyUser) throws Exception {
    return get(HttpClient.newHttpClient(), url, proxyUser);
  }

  @Test
  void aRequestNotFromAProxyHostIsRedirectedToTheProxyWhateverUserItClaims() throws Exception {
    StatusServer s = serve(proxyAt("127.0.0.9:9046"), Map.of());
    HttpResponse<String> conf = get(s.url().resolve("api/v1/conf"), "owner");
    assertEquals(302, conf.statusCode());
    assertEquals("http://127.0.0.9:9046/proxy/redirect/" + APP + "/api/v1/conf",
        conf.headers().firstValue("Location").orElse(""));
    assertFalse(conf.body().contains(SECRET_SETTING), conf.body());
    HttpResponse<String> page = get(s.url().resolve("?refresh=1"), null);
    assertEquals(302, page.statusCode());
    assertEquals("http://127.0.0.9:9046/proxy/redirect/" + APP + "/?refresh=1",
        page.headers().firstValue("Location").orElse(""));
  }

  @Test
  void withYarnAclsOffEveryoneTheProxySendsSeesThePage() throws Exception {
    StatusServer s = serve(proxyAt("127.0.0.1:9046"), Map.of(ApplicationAccessType.VIEW_APP, "alice"));
    assertTrue(s.url().toString().startsWith("http://127.0.0.1:"), s.url().toString());
    assertEquals(200, get(s.url(), "mallory").statusCode());
    assertEquals(200, get(s.url().resolve("api/v1/status"), null).statusCode());
  }

  @Test
  void withYarnAclsOnTheProxysUserMustBeTheOwnerAnAdminOrInTheViewAcl() throws Exception {
    StatusServer s = serve(withAcls(proxyAt("127.0.0.1:9046")), Map.of(ApplicationAccessType.VIEW_APP, "alice",
        ApplicationAccessType.MODIFY_APP, "mallory"));
    for (String user : List.of("alice", "owner", "yarn-admin")) {
      assertEquals(200, get(s.url(), user).statusCode(), user);
      assertEquals(200, get(s.url().resolve("api/v1/conf"), user).statusCode(), user);
    }
    for (String path : List.of("", "api/v1/conf", "status", "nope")) {
      HttpResponse<String> refused = get(s.url().resolve(path), "mallory");
      assertEquals(403, refused.statusCode(), "modifying is not viewing: " + path);
      assertFalse(refused.body().contains(SECRET_SETTING));
      assertTrue(refused.body().contains("elasticam.ui.view.acls"), refused.body());
      assertEquals("nosniff", refused.headers().firstValue("X-Content-Type-Options").orElse(""));
    }
    // Nobody to check: the ResourceManager's web UI let an anonymous user in, and serves its own pages to them.
    assertEquals(200, get(s.url(), null).statusCode());
  }

  @Test
  void withoutAViewAclOnlyTheOwnerAndAdminsSeeIt() throws Exception {
    StatusServer s = serve(withAcls(proxyAt("127.0.0.1:9046")), Map.of());
    assertEquals(200, get(s.url(), "owner").statusCode());
    assertEquals(403, get(s.url(), "alice").statusCode());
  }

  @Test
  void httpsWhereTheClusterIsHttpsOnlyWithTheKeystoreAndCipherExclusionsOfSslServerXml(@TempDir Path dir)
      throws Exception {
    assertNull(LivePageFront.tls(new Configuration(false)), "HTTP where yarn.http.policy is the default");
    ClusterTlsFiles files = ClusterTlsFiles.create(dir, Path.of("target", "test-classes"),
        List.of("ssl.server.exclude.cipher.list", "TLS_AES_256_GCM_SHA384"));
    Configuration conf = files.conf();
    conf.set(YarnConfiguration.YARN_HTTP_POLICY_KEY, "HTTPS_ONLY");
    conf.set(YarnConfiguration.PROXY_ADDRESS, "127.0.0.1:9046");
    StatusServer s = serve(conf, Map.of());
    assertTrue(s.url().toString().startsWith("https://127.0.0.1:"), s.url().toString());
    SSLContext trusting = SSLContext.getInstance("TLS");
    trusting.init(null, new TrustManager[] {HadoopTls.clientTrust(files.conf())}, null);
    HttpResponse<String> page = get(client(trusting, "TLS_AES_128_GCM_SHA256"), s.url(), null);
    assertEquals(200, page.statusCode());
    assertTrue(page.body().contains("<table id=\"now\">"), page.body());
    assertThrows(SSLHandshakeException.class, () -> get(client(trusting, "TLS_AES_256_GCM_SHA384"), s.url(), null),
        "a cipher suite ssl-server.xml excludes is not offered");

    conf.set(YarnConfiguration.PROXY_ADDRESS, "127.0.0.9:9046");
    HttpResponse<String> redirected = get(client(trusting, "TLS_AES_128_GCM_SHA256"), serve(conf, Map.of()).url(),
        null);
    assertEquals(302, redirected.statusCode());
    assertEquals("https://127.0.0.9:9046/proxy/redirect/" + APP + "/",
        redirected.headers().firstValue("Location").orElse(""), "and the proxy is reached over HTTPS too");
  }

  private static HttpClient client(SSLContext context, String cipherSuite) {
    SSLParameters params = new SSLParameters(new String[] {cipherSuite}, new String[] {"TLSv1.3"});
    return HttpClient.newBuilder().sslContext(context).sslParameters(params).build();
  }
}
