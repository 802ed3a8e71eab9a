package org.elasticam.bench.shuffle;

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
import java.util.zip.CRC32C;

/**
 * One blocking, kept-alive HTTP/1.1 connection of the load generator, the same for every server:
 * a request head out, a response head and a Content-Length body in, through one reusable
 * buffer. Bodies stream through a checksum; nothing of a block is kept.
 */
final class Wire extends InputStream implements Closeable {

  private static final int BUFFER = 256 * 1024;

  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;
  private final byte[] buf = new byte[BUFFER];
  private int pos;
  private int limit;
  private long consumed;

  private Wire(Socket socket) throws IOException {
    this.socket = socket;
    this.in = socket.getInputStream();
    this.out = socket.getOutputStream();
  }

  /** A connection whose socket receive buffer is fixed at {@code receiveBuffer} bytes (0: the kernel's auto-tuning). */
  static Wire open(int port, int receiveBuffer) throws IOException {
    Socket s = new Socket();
    try {
      if (receiveBuffer > 0) {
        s.setReceiveBufferSize(receiveBuffer); // before connecting, so that the window scale allows it
      }
      s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
      s.setTcpNoDelay(true);
      s.setSoTimeout(120_000);
      return new Wire(s);
    } catch (IOException e) {
      s.close();
      throw e;
    }
  }

  /** A response's status and headers (names in lower case). */
  record Head(int status, long contentLength, Map<String, String> headers) {
    boolean keepAlive() {
      return !"close".equalsIgnoreCase(headers.getOrDefault("connection", ""));
    }
  }

  /** Sends {@code GET target HTTP/1.1} with these extra header lines (each "Name: value"). */
  void get(String target, String... headerLines) throws IOException {
    StringBuilder sb = new StringBuilder(target.length() + 256);
    sb.append("GET ").append(target).append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    for (String h : headerLines) {
      sb.append(h).append("\r\n");
    }
    sb.append("\r\n");
    out.write(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
  }

  Head readHead() throws IOException {
    String status = line();
    String[] parts = status.split(" ", 3);
    if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
      throw new IOException("not an HTTP response: " + status);
    }
    Map<String, String> headers = new HashMap<>();
    for (String l = line(); !l.isEmpty(); l = line()) {
      int colon = l.indexOf(':');
      if (colon > 0) {
        headers.put(l.substring(0, colon).trim().toLowerCase(Locale.ROOT), l.substring(colon + 1).trim());
      }
    }
    String len = headers.get("content-length");
    consumed = 0;
    return new Head(Integer.parseInt(parts[1]), len == null ? -1 : Long.parseLong(len), headers);
  }

  private String line() throws IOException {
    StringBuilder sb = new StringBuilder(64);
    while (true) {
      int c = read();
      if (c < 0) {
        throw new EOFException("connection closed in a response head");
      }
      if (c == '\n') {
        int n = sb.length();
        return n > 0 && sb.charAt(n - 1) == '\r' ? sb.substring(0, n - 1) : sb.toString();
      }
      sb.append((char) c);
    }
  }

  /** Body bytes read since the last head. */
  long consumed() {
    return consumed;
  }

  private boolean fill() throws IOException {
    if (pos < limit) {
      return true;
    }
    int n = in.read(buf, 0, buf.length);
    if (n < 0) {
      return false;
    }
    pos = 0;
    limit = n;
    return true;
  }

  @Override
  public int read() throws IOException {
    if (!fill()) {
      return -1;
    }
    consumed++;
    return buf[pos++] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (!fill()) {
      return -1;
    }
    int n = Math.min(len, limit - pos);
    System.arraycopy(buf, pos, b, off, n);
    pos += n;
    consumed += n;
    return n;
  }

  void readFully(byte[] b) throws IOException {
    for (int at = 0; at < b.length; ) {
      int n = read(b, at, b.length - at);
      if (n < 0) {
        throw new EOFException("connection closed in a response body");
      }
      at += n;
    }
  }

  /** Reads the next {@code n} bytes, returning their CRC32C. */
  int crcOf(long n) throws IOException {
    CRC32C crc = new CRC32C();
    long left = n;
    while (left > 0) {
      if (!fill()) {
        throw new EOFException("connection closed " + left + " bytes before the end of a block");
      }
      int k = (int) Math.min(left, limit - pos);
      crc.update(buf, pos, k);
      pos += k;
      consumed += k;
      left -= k;
    }
    return (int) crc.getValue();
  }

  /** Reads a short error body as text. */
  String text(long n) throws IOException {
    byte[] b = new byte[(int) Math.max(0, Math.min(n, 4096))];
    readFully(b);
    return new String(b, StandardCharsets.UTF_8).trim();
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // Closing: nothing to do.
    }
  }
}
