package org.elasticam.bench.launch;

import java.io.OutputStream;
import java.net.Socket;

/** The floor's minimal Java container: connect back to the benchmark, say hello, exit. */
public final class Hello {

  private Hello() {}

  public static void main(String[] args) throws Exception {
    try (Socket s = new Socket(args[0], Integer.parseInt(args[1])); OutputStream out = s.getOutputStream()) {
      out.write(1);
    }
  }
}
