package org.elasticam.am.status;

import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.FilterConfig;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationAccessType;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.security.ApplicationACLsManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds the live page to the application's VIEW_APP ACL ({@code elasticam.ui.view.acls}) with the
 * rule the ResourceManager applies to its own pages of the application: YARN's {@link
 * ApplicationACLsManager} (with {@code yarn.acl.enable} off everyone may; else YARN's admins, the
 * owner, and the ACL's users and groups). The ResourceManager's web proxy checks no ACL itself:
 * it names the user it authenticated in its {@code proxy-user} cookie, which {@code AmIpFilter},
 * the filter before this one, believes only from a proxy host, as MapReduce's and Spark's AMs do.
 *
 * <p>A request the proxy sends without a user (its web UI lets anonymous users in) is served, as
 * the ResourceManager serves its own pages to them: there is nobody to check. The ACL protects
 * the page where the ResourceManager's web UI authenticates its users (Kerberos, or simple
 * authentication without anonymous users).
 */
final class ViewAclFilter implements Filter {

  private static final Logger LOG = LoggerFactory.getLogger(ViewAclFilter.class);
  /** Refusals are logged once per user, so a reloading page does not fill the log; this many users at most. */
  private static final int LOGGED_USERS = 1000;

  private final ApplicationACLsManager acls;
  private final ApplicationId app;
  private final String owner;
  private final Set<String> refusalsLogged = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean anonymousLogged = new AtomicBoolean();

  /** @param acls holds the application's ACLs (as the client set them at submission) */
  ViewAclFilter(ApplicationACLsManager acls, ApplicationId app, String owner) {
    this.acls = acls;
    this.app = app;
    this.owner = owner;
  }

  @Override
  public void init(FilterConfig config) {
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    HttpServletRequest req = (HttpServletRequest) request;
    String user = req.getRemoteUser();
    if (user == null) {
      if (acls.areACLsEnabled() && anonymousLogged.compareAndSet(false, true)) {
        LOG.info("The live page served a request without a user: the ResourceManager's web UI lets anonymous"
            + " users in, so the view ACL has nobody to check");
      }
      chain.doFilter(request, response);
      return;
    }
    if (acls.checkAccess(UserGroupInformation.createRemoteUser(user), ApplicationAccessType.VIEW_APP, owner, app)) {
      chain.doFilter(request, response);
      return;
    }
    if (refusalsLogged.size() < LOGGED_USERS && refusalsLogged.add(user)) {
      LOG.info("Refused {} the live page: not in the application's view ACL (elasticam.ui.view.acls)", user);
    }
    StatusPages.json(req, (HttpServletResponse) response, 403,
        Map.of("error", "user " + user + " may not view " + app + " (elasticam.ui.view.acls)"));
  }

  @Override
  public void destroy() {
  }
}
