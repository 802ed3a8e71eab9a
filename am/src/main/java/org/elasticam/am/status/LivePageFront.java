package org.elasticam.am.status;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.List;
import java.util.Map;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.ssl.SSLFactory;
import org.apache.hadoop.yarn.api.records.ApplicationAccessType;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.security.ApplicationACLsManager;
import org.elasticam.rpc.HadoopTls;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the live page is served in the AM's container, as MapReduce's and Spark's AMs serve theirs:
 * only to the ResourceManager's web proxy, which authenticates users, and through it only to those
 * the application's view ACL admits; over HTTPS when the cluster's {@code yarn.http.policy} is
 * HTTPS_ONLY, with the keystore of Hadoop's {@code ssl-server.xml}, as Hadoop's daemons serve
 * theirs. Each decision is logged once at start.
 */
public final class LivePageFront {

  private static final Logger LOG = LoggerFactory.getLogger(LivePageFront.class);

  private LivePageFront() {}

  /**
   * @param acls the application's ACLs as the client set them at submission
   * @param owner the application's user
   * @param proxyBase {@code APPLICATION_WEB_PROXY_BASE} of the AM's environment
   */
  public static StatusServer.Front inContainer(Configuration conf, String bindHost, ApplicationId app, String owner,
      Map<ApplicationAccessType, String> acls, String proxyBase) throws IOException {
    ProxyFilter proxy = ProxyFilter.of(conf, proxyBase);
    LOG.info("The live page answers the ResourceManager's web proxy only (hosts {}); other requests are"
        + " redirected to {}", proxy.proxyHosts(), proxy.proxyUriBases());
    ApplicationACLsManager manager = new ApplicationACLsManager(conf);
    manager.addApplication(app, acls);
    if (manager.areACLsEnabled()) {
      LOG.info("The live page is shown to {}, YARN's admins and {} (view ACL: {})", owner,
          acls.containsKey(ApplicationAccessType.VIEW_APP) ? "the users and groups of elasticam.ui.view.acls"
              : "nobody else", acls.getOrDefault(ApplicationAccessType.VIEW_APP, "unset"));
    } else {
      LOG.info("YARN's ACLs are off (yarn.acl.enable=false): everyone the proxy serves sees the live page");
    }
    StatusServer.PageFilter viewAcl = new StatusServer.PageFilter("view-acl",
        new ViewAclFilter(manager, app, owner), Map.of());
    return new StatusServer.Front(bindHost, tls(conf), List.of(proxy.newPageFilter(), viewAcl));
  }

  /** HTTPS where the cluster's web UIs are HTTPS only: the proxy then reaches the AM over HTTPS too. */
  static StatusServer.Tls tls(Configuration conf) throws IOException {
    if (!YarnConfiguration.useHttps(conf)) {
      return null;
    }
    KeyManager keys = HadoopTls.serverKeys(conf);
    String sslServerXml = conf.get(SSLFactory.SSL_SERVER_CONF_KEY, "ssl-server.xml");
    Configuration sslServer = new Configuration(false);
    sslServer.addResource(sslServerXml);
    try {
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(new KeyManager[] {keys}, null, null);
      LOG.info("The live page serves HTTPS (yarn.http.policy is HTTPS_ONLY) with the keystore of Hadoop's {}",
          sslServerXml);
      // As Hadoop's HttpServer2 reads it for the daemons' web UIs.
      return new StatusServer.Tls(context, List.of(sslServer.getTrimmedStrings("ssl.server.exclude.cipher.list")));
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot set up TLS for the live page: " + e.getMessage(), e);
    }
  }
}
