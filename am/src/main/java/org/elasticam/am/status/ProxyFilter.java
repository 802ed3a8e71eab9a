package org.elasticam.am.status;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.http.FilterContainer;
import org.apache.hadoop.yarn.server.webproxy.amfilter.AmFilterInitializer;
import org.apache.hadoop.yarn.server.webproxy.amfilter.AmIpFilter;

/**
 * YARN's filter for an AM's web pages ({@link AmIpFilter}), with the parameters YARN's own {@link
 * AmFilterInitializer} gives it: the proxy hosts (the ResourceManagers' web addresses, or {@code
 * yarn.web-proxy.address}), the proxy's base URL for this application (http or https after {@code
 * yarn.http.policy}), and with ResourceManager HA every ResourceManager's URL. A request from a
 * proxy host passes, carrying the user the proxy authenticated; any other is redirected to the
 * proxy. The initializer writes into a {@link FilterContainer}, which Hadoop's HttpServer2
 * implements; this one records what it is given, so the parameters are exactly YARN's.
 *
 * @param name the filter's name as YARN names it
 * @param className {@link AmIpFilter}, as the initializer names it
 */
record ProxyFilter(String name, String className, Map<String, String> params) {

  ProxyFilter {
    params = Map.copyOf(params);
  }

  /**
   * @param proxyBase the path the proxy serves this application under ({@code /proxy/<appId>}):
   *     {@code APPLICATION_WEB_PROXY_BASE}, which the ResourceManager puts in an AM's environment
   */
  static ProxyFilter of(Configuration conf, String proxyBase) {
    List<ProxyFilter> added = new ArrayList<>();
    FilterContainer recorder = new FilterContainer() {
      @Override
      public void addFilter(String name, String className, Map<String, String> params) {
        added.add(new ProxyFilter(name, className, params));
      }

      @Override
      public void addGlobalFilter(String name, String className, Map<String, String> params) {
        addFilter(name, className, params);
      }
    };
    new AmFilterInitializer() {
      @Override
      protected String getApplicationWebProxyBase() {
        return proxyBase;
      }
    }.initFilter(recorder, conf);
    if (added.size() != 1) {
      throw new IllegalStateException("YARN's AmFilterInitializer added " + added.size() + " filters, not 1");
    }
    return added.get(0);
  }

  String proxyHosts() {
    return params.get(AmIpFilter.PROXY_HOSTS);
  }

  String proxyUriBases() {
    return params.get(AmIpFilter.PROXY_URI_BASES);
  }

  /** A new instance of the filter the initializer named; Jetty initialises it with {@link #params()}. */
  StatusServer.PageFilter newPageFilter() {
    try {
      Object filter = Class.forName(className).getDeclaredConstructor().newInstance();
      return new StatusServer.PageFilter(name, (javax.servlet.Filter) filter, params);
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw new IllegalStateException("cannot create YARN's AM filter " + className + ": " + e, e);
    }
  }
}
