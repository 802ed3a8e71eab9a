package org.elasticam.bench.shuffle;

import java.io.IOException;
import java.io.InputStream;

/**
 * How a server main talks to the driver that started it: one line {@code PORT <n>} on stdout once
 * it serves, then it serves until its stdin closes, and stops.
 */
final class ServerProcess {

  private ServerProcess() {}

  static void serveUntilStdinCloses(int port, AutoCloseable server) throws Exception {
    System.out.println("PORT " + port);
    System.out.flush();
    InputStream in = System.in;
    byte[] b = new byte[64];
    try {
      while (in.read(b) >= 0) {
        // Nothing is said on stdin; its end is the signal.
      }
    } catch (IOException e) {
      // The driver went away: stop too.
    }
    server.close();
    System.exit(0);
  }
}
