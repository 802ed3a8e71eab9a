package org.elasticam.am.status;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.net.ssl.SSLContext;
import javax.servlet.DispatcherType;
import javax.servlet.Filter;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.servlet.FilterHolder;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The AM's tracking URL. {@code /} is a live page (server-rendered HTML with inline SVG, no script,
 * nothing fetched; it reloads itself every few seconds): the state right now, then the run so far
 * drawn from the event log's lines — the same report {@code bin/elasticam history} writes. The
 * same data as JSON under {@code /api/v1/}: {@code status}, {@code executors}, {@code stages},
 * {@code timeline}, {@code decisions}, {@code conf} (as logged at start, secrets redacted);
 * {@code /status} stays for older clients. Links are relative, so the page works through the
 * ResourceManager's web proxy. Read-only, and state is taken on the event loop, so it is never
 * torn; what it answers is {@link StatusPages}.
 *
 * <p>Served by Jetty — the Jetty 9.4 that every YARN container's classpath has with Hadoop — with
 * the {@link Front}'s filters in front of the page (in a container: {@link LivePageFront}, which
 * admits only the ResourceManager's proxy and the users of the view ACL), over HTTPS when the
 * front has a TLS context. Nothing but this page is served: none of the servlets Hadoop's
 * HttpServer2 always adds (/conf, /jmx, /logLevel, /stacks, /logs, /prof), which would show the
 * AM's Hadoop configuration and internals, or let a viewer change its log levels.
 */
public final class StatusServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(StatusServer.class);
  /** Jetty's acceptor and selector take one thread each; the rest answer requests. */
  private static final int THREADS = 6;
  private static final int ACCEPT_QUEUE = 16;

  /** What a request may show: the state now, and the event log's lines so far. */
  public interface Source {
    Map<String, Object> snapshot() throws Exception;

    List<String> eventLines() throws Exception;
  }

  /** A servlet filter in front of the page, with its init parameters, run in the order given. */
  public record PageFilter(String name, Filter filter, Map<String, String> params) {
    public PageFilter {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(filter, "filter");
      params = Map.copyOf(params);
    }
  }

  /**
   * HTTPS with this context, without the cipher suites named (besides those Jetty never offers).
   */
  public record Tls(SSLContext context, List<String> excludedCiphers) {
    public Tls {
      Objects.requireNonNull(context, "context");
      excludedCiphers = List.copyOf(excludedCiphers);
    }
  }

  /**
   * Where and how the page is served.
   *
   * @param tls null for plain HTTP
   */
  public record Front(String bindHost, Tls tls, List<PageFilter> filters) {
    public Front {
      Objects.requireNonNull(bindHost, "bindHost");
      filters = List.copyOf(filters);
    }

    /** Plain HTTP, nothing in front: for tests of the page itself. */
    public static Front open(String bindHost) {
      return new Front(bindHost, null, List.of());
    }
  }

  private final Server server;
  private final ServerConnector connector;
  private final String scheme;
  private final String host;

  public StatusServer(Front front, Source source) throws IOException {
    QueuedThreadPool threads = new QueuedThreadPool(THREADS, 2);
    threads.setName("status-http");
    threads.setDaemon(true);
    server = new Server(threads);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    if (front.tls() == null) {
      connector = new ServerConnector(server, 1, 1, new HttpConnectionFactory(http));
    } else {
      // No SNI host check: the ResourceManager's proxy dials the tracking URL's address, not a name.
      http.addCustomizer(new SecureRequestCustomizer(false));
      SslContextFactory.Server tls = new SslContextFactory.Server();
      tls.setSslContext(front.tls().context());
      tls.addExcludeCipherSuites(front.tls().excludedCiphers().toArray(new String[0]));
      connector = new ServerConnector(server, 1, 1, new SslConnectionFactory(tls, HttpVersion.HTTP_1_1.asString()),
          new HttpConnectionFactory(http));
    }
    connector.setHost(front.bindHost());
    connector.setPort(0);
    connector.setAcceptQueueSize(ACCEPT_QUEUE);
    server.addConnector(connector);
    server.setHandler(context(front.filters(), source));
    server.setErrorHandler(quietErrors());
    try {
      server.start();
    } catch (Exception e) {
      close();
      throw new IOException("cannot start the live page on " + front.bindHost() + ": " + e.getMessage(), e);
    }
    scheme = front.tls() == null ? "http" : "https";
    host = front.bindHost();
  }

  private static ServletContextHandler context(List<PageFilter> filters, Source source) {
    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    context.setContextPath("/");
    for (PageFilter f : filters) {
      FilterHolder holder = new FilterHolder(f.filter());
      holder.setName(f.name());
      holder.setInitParameters(f.params());
      context.addFilter(holder, "/*", EnumSet.of(DispatcherType.REQUEST));
    }
    context.addServlet(new ServletHolder(new HttpServlet() {
      @Override
      protected void service(HttpServletRequest req, HttpServletResponse resp) {
        StatusPages.handle(req, resp, source);
      }
    }), "/*");
    context.setErrorHandler(quietErrors());
    return context;
  }

  /**
   * What Jetty answers itself — a URI that climbs above the root, a malformed request, a filter
   * that failed — in the page's own JSON, without stack traces or anything of the request.
   */
  private static ErrorHandler quietErrors() {
    ErrorHandler errors = new ErrorHandler() {
      @Override
      protected void generateAcceptableResponse(Request base, HttpServletRequest req, HttpServletResponse resp,
          int code, String message) throws IOException {
        base.setHandled(true);
        StatusPages.json(req, resp, code, Map.of("error", reason(code)));
      }

      @Override
      public ByteBuffer badMessageError(int status, String reason, HttpFields fields) {
        fields.put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
        fields.put("X-Content-Type-Options", "nosniff");
        return ByteBuffer.wrap(("{\"error\":\"" + reason(status) + "\"}").getBytes(StandardCharsets.UTF_8));
      }
    };
    // The overrides above write every page Jetty would, so its other show-flags never apply; they are
    // not set because Hadoop 3.1's Jetty (9.4.20) lacks the setters.
    errors.setShowStacks(false);
    return errors;
  }

  private static String reason(int code) {
    String known = HttpStatus.getMessage(code);
    return known == null ? "error " + code : known.toLowerCase(java.util.Locale.ROOT);
  }

  public int port() {
    return connector.getLocalPort();
  }

  /** The tracking URL: {@code http(s)://<bind host>:<port>/}. */
  public URI url() {
    return URI.create(scheme + "://" + host + ":" + port() + "/");
  }

  @Override
  public void close() {
    try {
      server.stop();
    } catch (Exception e) {
      LOG.warn("Stopping the live page failed: {}", e.toString());
    }
  }
}
