package org.elasticam.shuffle.service.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** A plain socket to the server, reading responses by hand: for what a well-behaved client would not do. */
final class RawSocket implements AutoCloseable {

  final Socket socket = new Socket();
  private final InputStream in;

  RawSocket(int port, int receiveBuffer) throws IOException {
    if (receiveBuffer > 0) {
      socket.setReceiveBufferSize(receiveBuffer);
    }
    socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
    socket.setSoTimeout(20_000);
    in = socket.getInputStream();
  }

  void send(String raw) throws IOException {
    socket.getOutputStream().write(raw.getBytes(StandardCharsets.ISO_8859_1));
    socket.getOutputStream().flush();
  }

  /** Reads one whole response. */
  Raw.Response response() throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    String h = head(head);
    int len = contentLength(h);
    byte[] body = in.readNBytes(len);
    head.writeBytes(body);
    List<Raw.Response> r = Raw.parse(head.toByteArray());
    if (r.size() != 1) {
      throw new IOException("no complete response: " + h);
    }
    return r.get(0);
  }

  /** Reads up to the end of the response head and returns it. */
  String head(ByteArrayOutputStream into) throws IOException {
    StringBuilder sb = new StringBuilder();
    while (!sb.toString().endsWith("\r\n\r\n")) {
      int c = in.read();
      if (c < 0) {
        throw new IOException("closed in the head: " + sb);
      }
      sb.append((char) c);
      into.write(c);
    }
    return sb.toString();
  }

  static int contentLength(String head) {
    for (String line : head.split("\r\n")) {
      if (line.toLowerCase().startsWith("content-length:")) {
        return Integer.parseInt(line.substring(15).trim());
      }
    }
    return 0;
  }

  /** Reads until EOF or {@code max} bytes; returns how many. */
  long drain(long max) throws IOException {
    byte[] buf = new byte[64 * 1024];
    long total = 0;
    while (total < max) {
      int n = in.read(buf, 0, (int) Math.min(buf.length, max - total));
      if (n < 0) {
        break;
      }
      total += n;
    }
    return total;
  }

  boolean closedByPeer() throws IOException {
    try {
      return in.read() < 0;
    } catch (java.net.SocketException e) {
      return true;
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
