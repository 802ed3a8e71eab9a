package org.elasticam.shuffle.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * A loopback server that answers each request line with whatever the script returns for
 * (request number, request line) — raw bytes, so tests can send truncated, corrupt or closing
 * responses the real service never would. A null answer closes the connection unanswered.
 */
final class ScriptedServer implements AutoCloseable {

  private final ServerSocket socket;
  private final BiFunction<Integer, String, byte[]> script;
  private final AtomicInteger requests = new AtomicInteger();
  final AtomicInteger connections = new AtomicInteger();
  final List<String> lines = Collections.synchronizedList(new ArrayList<>());
  private final Thread acceptor;

  ScriptedServer(BiFunction<Integer, String, byte[]> script) throws IOException {
    this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.script = script;
    this.acceptor = new Thread(this::accept, "scripted-server");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  int port() {
    return socket.getLocalPort();
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket s = socket.accept();
        connections.incrementAndGet();
        Thread t = new Thread(() -> serve(s), "scripted-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(Socket s) {
    try (s) {
      BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
      OutputStream out = s.getOutputStream();
      String line;
      while ((line = in.readLine()) != null) {
        for (String h = in.readLine(); h != null && !h.isEmpty(); h = in.readLine()) {
          // headers: ignored
        }
        lines.add(line);
        byte[] answer = script.apply(requests.getAndIncrement(), line);
        if (answer == null) {
          return;
        }
        out.write(answer);
        out.flush();
        if (CLOSING.remove(answer)) {
          return;
        }
      }
    } catch (IOException e) {
      // the client went away
    }
  }

  private static final java.util.Set<byte[]> CLOSING =
      Collections.synchronizedSet(Collections.newSetFromMap(new java.util.IdentityHashMap<>()));

  /** An answer after which the server closes the connection. */
  static byte[] thenClose(byte[] answer) {
    CLOSING.add(answer);
    return answer;
  }

  static byte[] text(int status, String headers, String body) {
    return ("HTTP/1.1 " + status + " X\r\nContent-Length: " + body.length() + "\r\n" + headers + "\r\n" + body)
        .getBytes(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
