package org.elasticam.bench.shuffle;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The physical limit: the least a server can do to send the same blocks over the same kind of
 * connection. A thread per kept-alive HTTP/1.1 connection, a request line naming the blocks
 * ({@code GET /raw?size=<shape>&reduce=<r>&map=<first>&count=<k>}), every data file opened once
 * at start, offsets computed, no index, no authentication, and each block sent with
 * {@code FileChannel.transferTo} (sendfile) straight to the socket after a minimal response head.
 *
 * <p>Arguments: {@code <work dir> <shape>...}.
 */
public final class SendfileServerMain {

  private final Map<String, FileChannel[]> files = new HashMap<>();
  private final Map<String, Shape> shapes = new HashMap<>();

  private SendfileServerMain(Path work, String[] shapeKeys) throws IOException {
    for (String k : shapeKeys) {
      Shape s = Shape.parse(k);
      FileChannel[] fs = new FileChannel[s.maps()];
      for (int m = 0; m < s.maps(); m++) {
        fs[m] = FileChannel.open(BenchApp.rawData(work, s, m));
      }
      files.put(s.key(), fs);
      shapes.put(s.key(), s);
    }
  }

  public static void main(String[] args) throws Exception {
    SendfileServerMain server = new SendfileServerMain(Path.of(args[0]),
        java.util.Arrays.copyOfRange(args, 1, args.length));
    ServerSocketChannel listener = ServerSocketChannel.open();
    listener.bind(new InetSocketAddress("127.0.0.1", 0), 1024);
    Thread acceptor = new Thread(() -> server.accept(listener), "sendfile-accept");
    acceptor.setDaemon(true);
    acceptor.start();
    ServerProcess.serveUntilStdinCloses(((InetSocketAddress) listener.getLocalAddress()).getPort(), listener);
  }

  private void accept(ServerSocketChannel listener) {
    while (listener.isOpen()) {
      try {
        SocketChannel c = listener.accept();
        c.setOption(StandardSocketOptions.TCP_NODELAY, true);
        Thread t = new Thread(() -> serve(c), "sendfile-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(SocketChannel c) {
    ByteBuffer in = ByteBuffer.allocate(8192);
    try (c) {
      while (true) {
        String line = readHead(c, in);
        if (line == null) {
          return;
        }
        respond(c, line);
      }
    } catch (IOException | RuntimeException e) {
      // The client went away, or sent something this server does not speak: drop the connection.
    }
  }

  /** The request line of the next request head, or null at the end of the stream. */
  private static String readHead(SocketChannel c, ByteBuffer in) throws IOException {
    while (true) {
      int end = headEnd(in);
      if (end >= 0) {
        String head = new String(in.array(), 0, end, StandardCharsets.ISO_8859_1);
        in.flip().position(end + 4);
        in.compact();
        return head.substring(0, head.indexOf("\r\n") < 0 ? head.length() : head.indexOf("\r\n"));
      }
      if (!in.hasRemaining() || c.read(in) < 0) {
        return null;
      }
    }
  }

  private static int headEnd(ByteBuffer in) {
    byte[] a = in.array();
    for (int i = 0; i + 3 < in.position(); i++) {
      if (a[i] == '\r' && a[i + 1] == '\n' && a[i + 2] == '\r' && a[i + 3] == '\n') {
        return i;
      }
    }
    return -1;
  }

  private void respond(SocketChannel c, String requestLine) throws IOException {
    Map<String, String> q = query(requestLine);
    Shape s = shapes.get(q.get("size"));
    FileChannel[] fs = files.get(q.get("size"));
    int reduce = Integer.parseInt(q.get("reduce"));
    int first = Integer.parseInt(q.get("map"));
    int count = Integer.parseInt(q.get("count"));
    long length = (long) count * s.blockSize();
    ByteBuffer head = ByteBuffer.wrap(("HTTP/1.1 200 OK\r\nContent-Length: " + length + "\r\n\r\n")
        .getBytes(StandardCharsets.ISO_8859_1));
    while (head.hasRemaining()) {
      c.write(head);
    }
    long offset = (long) reduce * s.blockSize();
    for (int m = first; m < first + count; m++) {
      long at = offset;
      long end = offset + s.blockSize();
      while (at < end) {
        at += fs[m].transferTo(at, end - at, c);
      }
    }
  }

  private static Map<String, String> query(String requestLine) {
    String target = requestLine.split(" ")[1];
    Map<String, String> q = new HashMap<>();
    for (String kv : target.substring(target.indexOf('?') + 1).split("&")) {
      int eq = kv.indexOf('=');
      q.put(kv.substring(0, eq), kv.substring(eq + 1));
    }
    return q;
  }
}
