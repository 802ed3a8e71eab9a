package org.elasticam.shuffle.client;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.elasticam.shuffle.protocol.ShuffleProtocol;

/**
 * One blocking HTTP/1.1 connection to a shuffle service: exactly what our protocol needs (a
 * request without a body, a response with Content-Length), nothing of general HTTP.
 */
final class HttpConnection implements Closeable {

  private static final int MAX_HEAD_BYTES = 16 * 1024;

  private final ServiceAddress address;
  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private long idleSinceMs;
  private boolean reused;

  private HttpConnection(ServiceAddress address, Socket socket) throws IOException {
    this.address = address;
    this.socket = socket;
    this.in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
    this.out = new BufferedOutputStream(socket.getOutputStream(), 4096);
  }

  static HttpConnection open(ServiceAddress a, ClientSettings s) throws IOException {
    Socket plain = new Socket();
    try {
      plain.connect(new InetSocketAddress(a.host(), a.port()), (int) Math.min(Integer.MAX_VALUE, s.connectTimeout().toMillis()));
      plain.setSoTimeout((int) Math.min(Integer.MAX_VALUE, s.readTimeout().toMillis()));
      plain.setTcpNoDelay(true);
      if (!a.tls()) {
        return new HttpConnection(a, plain);
      }
      if (s.sslContext() == null) {
        throw new IOException(a + " speaks TLS and the client has no SSLContext");
      }
      SSLSocket tls = (SSLSocket) s.sslContext().getSocketFactory().createSocket(plain, a.host(), a.port(), true);
      SSLParameters p = tls.getSSLParameters();
      p.setEndpointIdentificationAlgorithm("HTTPS");
      tls.setSSLParameters(p);
      tls.startHandshake();
      return new HttpConnection(a, tls);
    } catch (IOException | RuntimeException e) {
      plain.close();
      throw e;
    }
  }

  ServiceAddress address() {
    return address;
  }

  /** True once it has carried a response: a failure before any byte then may just mean the service closed it idle. */
  boolean reused() {
    return reused;
  }

  void markIdle(long nowMs) {
    reused = true;
    idleSinceMs = nowMs;
  }

  long idleSinceMs() {
    return idleSinceMs;
  }

  void send(String method, String target, String signature) throws IOException {
    StringBuilder sb = new StringBuilder(target.length() + 200);
    sb.append(method).append(' ').append(target).append(" HTTP/1.1\r\n")
        .append("Host: ").append(address.host()).append(':').append(address.port()).append("\r\n")
        .append(ShuffleProtocol.SIGNATURE_HEADER).append(": ").append(signature).append("\r\n");
    if (!method.equals("GET")) {
      sb.append("Content-Length: 0\r\n");
    }
    sb.append("\r\n");
    out.write(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
  }

  ResponseHead readHead() throws IOException {
    int[] budget = {MAX_HEAD_BYTES};
    String status = readLine(budget);
    String[] parts = status.split(" ", 3);
    if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
      throw new IOException("not an HTTP response: " + status);
    }
    int code;
    try {
      code = Integer.parseInt(parts[1]);
    } catch (NumberFormatException e) {
      throw new IOException("bad status line: " + status);
    }
    Map<String, String> headers = new HashMap<>();
    for (String line = readLine(budget); !line.isEmpty(); line = readLine(budget)) {
      int colon = line.indexOf(':');
      if (colon > 0) {
        headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
      }
    }
    return new ResponseHead(code, headers, parts[0].equals("HTTP/1.1"));
  }

  private String readLine(int[] budget) throws IOException {
    StringBuilder sb = new StringBuilder();
    while (true) {
      int c = in.read();
      if (c < 0) {
        throw new EOFException("connection closed in the response head");
      }
      if (--budget[0] < 0) {
        throw new IOException("response head over " + MAX_HEAD_BYTES + " bytes");
      }
      if (c == '\n') {
        int n = sb.length();
        return n > 0 && sb.charAt(n - 1) == '\r' ? sb.substring(0, n - 1) : sb.toString();
      }
      sb.append((char) c);
    }
  }

  /** The next {@code n} bytes of the body, or EOFException. */
  void readFully(byte[] b, int off, int len) throws IOException {
    int at = off;
    while (at < off + len) {
      int n = in.read(b, at, off + len - at);
      if (n < 0) {
        throw new EOFException("connection closed " + (off + len - at) + " bytes before the end of a response");
      }
      at += n;
    }
  }

  /** Reads and discards {@code n} bytes (a body we do not need), so the connection can be reused. */
  void skip(long n) throws IOException {
    byte[] buf = new byte[(int) Math.min(8192, Math.max(1, n))];
    long left = n;
    while (left > 0) {
      int k = in.read(buf, 0, (int) Math.min(buf.length, left));
      if (k < 0) {
        throw new EOFException("connection closed in a response body");
      }
      left -= k;
    }
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // Closing: nothing to do about it.
    }
  }
}
