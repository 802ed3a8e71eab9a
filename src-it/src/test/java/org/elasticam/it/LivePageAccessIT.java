package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationAccessType;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * Who reads the AM's live page, on a cluster with YARN's ACLs on whose ResourceManager web UI
 * authenticates every user (simple authentication: {@code ?user.name=}, anonymous users refused),
 * for one running application submitted with {@code elasticam.ui.view.acls="alice analysts"} and
 * {@code elasticam.modify.acls=carol}. Users: the submitter (this test's OS user, who owns the
 * application), alice (in the view ACL by name), bob (by his group, analysts, which the AM's
 * group mapping gives him), mallory (in no ACL), carol (may kill, not view).
 *
 * <p>The ResourceManager, the NodeManagers and this test all sit on loopback addresses; the
 * ResourceManager's proxy sends from its host name's address. A request from 127.0.0.9, which is
 * none of them, is a stranger's reaching the AM's port around the proxy.
 */
@Timeout(240)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LivePageAccessIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String OWNER = System.getProperty("user.name");
  private static final InetAddress STRANGER = address("127.0.0.9");
  /** A setting of the run that only the page's readers should see. */
  private static final String SETTING = "elasticam.executor.instances";

  private static ItCluster it;
  private static ApplicationId id;

  @BeforeAll
  static void start() throws Exception {
    Path secret = Files.createTempFile("http-auth-signature", ".secret");
    Files.writeString(secret, Long.toString(System.nanoTime()) + Math.random());
    it = ItCluster.start("live-page-access", s -> s
        .withConf(YarnConfiguration.YARN_ACL_ENABLE, "true")
        // The defaults, *, make everyone a YARN admin and an administrator of every queue, and both
        // may view and kill any application.
        .withConf(YarnConfiguration.YARN_ADMIN_ACL, OWNER)
        .withConf("yarn.scheduler.capacity.root.acl_administer_queue", OWNER)
        .withConf("yarn.scheduler.capacity.root.default.acl_administer_queue", OWNER)
        .withConf("hadoop.http.filter.initializers", "org.apache.hadoop.security.AuthenticationFilterInitializer")
        .withConf("hadoop.http.authentication.type", "simple")
        .withConf("hadoop.http.authentication.simple.anonymous.allowed", "false")
        .withConf("hadoop.http.authentication.signature.secret.file", secret.toString())
        .withConf("hadoop.user.group.static.mapping.overrides", "dr.who=;bob=analysts;mallory=;carol=;alice="));
    ItCluster.ClientRun run = it.client("submit", "--detach", "--conf", "elasticam.ui.view.acls=alice analysts",
        "--conf", "elasticam.modify.acls=carol", "--conf", SETTING + "=1",
        "sleep", "--stages", "1", "--tasks", "200", "--task-ms", "1000");
    assertEquals(0, run.exitCode(), run.out() + run.err());
    id = run.appId();
    it.awaitEvents(id, "task_end", 1, Duration.ofSeconds(90));
  }

  @AfterAll
  static void stop() throws Exception {
    if (it != null) {
      try (YarnClient yarn = YarnClient.createYarnClient()) {
        yarn.init(it.conf());
        yarn.start();
        if (id != null && yarn.getApplicationReport(id).getYarnApplicationState() == YarnApplicationState.RUNNING) {
          yarn.killApplication(id);
        }
      } finally {
        it.close();
      }
    }
  }

  @Test
  @Order(1)
  void aRequestFromAnAddressThatIsNoProxyHostIsRedirectedToTheProxy() throws Exception {
    URI am = URI.create(it.report(id).getOriginalTrackingUrl());
    assertNotEquals(STRANGER, it.proxyAddress());
    for (String path : List.of("", "api/v1/conf", "api/v1/status", "status", "nope")) {
      ItCluster.RawHttp direct = ItCluster.http(STRANGER, "GET", am.resolve(path));
      assertEquals(302, direct.status(), path);
      assertEquals("http://" + it.proxyHostAndPort() + "/proxy/redirect/" + id + "/" + path, direct.header("Location"));
      assertFalse(direct.body().contains(SETTING), "nothing of the run: " + direct.body());
    }
    assertEquals(302, ItCluster.http(STRANGER, "POST", am.resolve("api/v1/status")).status());
    // What the filter compares is the address: the same request from the proxy's is answered.
    ItCluster.RawHttp fromProxy = ItCluster.http(it.proxyAddress(), "GET", am.resolve("api/v1/conf"));
    assertEquals(200, fromProxy.status());
    assertTrue(fromProxy.body().contains(SETTING), fromProxy.body());
  }

  @Test
  @Order(2)
  void theProxyServesThePageToTheOwnerAndTheViewAclOnly() throws Exception {
    URI proxied = URI.create(it.proxiedTrackingUrl(id));
    Answer anonymous = get(proxied, null);
    assertNotEquals(200, anonymous.status(), "the ResourceManager's web UI lets no anonymous user in");
    assertFalse(anonymous.body().contains(SETTING));
    for (String user : List.of(OWNER, "alice", "bob")) {
      Answer page = get(proxied, user);
      assertEquals(200, page.status(), user + ": " + page.body());
      assertTrue(page.body().contains("<svg"), "the live page, drawn: " + user);
      Answer status = get(proxied.resolve("api/v1/status"), user);
      assertEquals(200, status.status(), user);
      assertEquals("RUNNING", JSON.readTree(status.body()).path("state").asText());
      assertEquals("1", JSON.readTree(get(proxied.resolve("api/v1/conf"), user).body()).path(SETTING).asText());
    }
    for (String user : List.of("mallory", "carol")) {
      for (String path : List.of("", "api/v1/conf", "api/v1/status", "api/v1/executors")) {
        Answer refused = get(proxied.resolve(path), user);
        assertEquals(403, refused.status(), user + " " + path);
        assertFalse(refused.body().contains(SETTING), refused.body());
        assertTrue(refused.body().contains("elasticam.ui.view.acls"), refused.body());
      }
    }
  }

  @Test
  @Order(3)
  void theResourceManagerHoldsTheAclsAndOnlyTheModifyAclKills() throws Exception {
    assertEquals(Map.of(ApplicationAccessType.VIEW_APP, "alice analysts", ApplicationAccessType.MODIFY_APP, "carol"),
        it.cluster.applicationAcls(id));
    String am = it.report(id).getOriginalTrackingUrl();
    assertEquals(am, as("alice", yarn -> yarn.getApplicationReport(id)).getOriginalTrackingUrl());
    assertEquals("N/A", as("mallory", yarn -> yarn.getApplicationReport(id)).getOriginalTrackingUrl(),
        "the ResourceManager does not tell mallory where the AM is");
    for (String user : List.of("mallory", "alice")) {
      Exception refused = assertThrows(Exception.class, () -> as(user, yarn -> {
        yarn.killApplication(id);
        return null;
      }));
      assertTrue(causes(refused).contains("User " + user + " cannot perform operation MODIFY_APP"), causes(refused));
    }
    as("carol", yarn -> {
      yarn.killApplication(id);
      return null;
    });
    assertEquals(YarnApplicationState.KILLED, it.report(id).getYarnApplicationState());
  }

  /** What the ResourceManager's proxy answered, a refusal included; a redirect is not followed. */
  private record Answer(int status, String body) {}

  private static Answer get(URI url, String user) throws IOException {
    URI withUser = user == null ? url : URI.create(url + "?user.name=" + user);
    HttpURLConnection c = (HttpURLConnection) withUser.toURL().openConnection();
    c.setInstanceFollowRedirects(false);
    c.setConnectTimeout(5000);
    c.setReadTimeout(10_000);
    try {
      int status = c.getResponseCode();
      try (InputStream in = status < 400 ? c.getInputStream() : c.getErrorStream()) {
        return new Answer(status, in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
    } finally {
      c.disconnect();
    }
  }

  private interface YarnCall<T> {
    T call(YarnClient yarn) throws Exception;
  }

  /** A call to the ResourceManager as {@code user}, whom simple authentication takes at their word. */
  private static <T> T as(String user, YarnCall<T> call) throws Exception {
    return UserGroupInformation.createRemoteUser(user).doAs((PrivilegedExceptionAction<T>) () -> {
      try (YarnClient yarn = YarnClient.createYarnClient()) {
        yarn.init(it.conf());
        yarn.start();
        return call.call(yarn);
      }
    });
  }

  /** The messages of an exception and its causes: a refusal by the ResourceManager comes wrapped. */
  private static String causes(Throwable t) {
    StringBuilder all = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      all.append(c).append('\n');
    }
    return all.toString();
  }

  private static InetAddress address(String literal) {
    try {
      return InetAddress.getByName(literal);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
