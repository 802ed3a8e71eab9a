package org.elasticam.bench.shuffle;

import java.util.LinkedHashMap;
import java.util.Map;

/** One (server, block size, clients) cell: what was measured, and the figures derived from it. */
public record CellResult(ServerKind server, Shape shape, Measured m) {

  private static final double GIB = 1024.0 * 1024 * 1024;

  /**
   * What the load generator measured over the window: requests completed and their block bytes,
   * errors over the whole cell (warm-up included), request latency percentiles, the server's and
   * the load generator's CPU time, and the server's peak RSS over the cell.
   */
  public record Measured(int clients, long requests, long bytes, long windowNs, long errors, long reconnects,
      long p50Ns, long p99Ns, long serverCpuNs, long clientCpuNs, long serverPeakKib, boolean peakReset,
      String firstError) {

    /** One line, {@code RESULT key=value ...}; the first error last, as the rest of the line. */
    public String toLine() {
      return "RESULT clients=" + clients + " requests=" + requests + " bytes=" + bytes + " windowNs=" + windowNs
          + " errors=" + errors + " reconnects=" + reconnects + " p50Ns=" + p50Ns + " p99Ns=" + p99Ns
          + " serverCpuNs=" + serverCpuNs + " clientCpuNs=" + clientCpuNs + " serverPeakKib=" + serverPeakKib
          + " peakReset=" + peakReset + " firstError=" + (firstError == null ? "" : firstError.replace('\n', ' '));
    }

    public static Measured parse(String line) {
      if (!line.startsWith("RESULT ")) {
        throw new IllegalArgumentException("not a result line: " + line);
      }
      int err = line.indexOf(" firstError=");
      Map<String, String> kv = new LinkedHashMap<>();
      for (String f : line.substring(7, err).split(" ")) {
        int eq = f.indexOf('=');
        kv.put(f.substring(0, eq), f.substring(eq + 1));
      }
      String first = line.substring(err + " firstError=".length());
      return new Measured(Integer.parseInt(kv.get("clients")), l(kv, "requests"), l(kv, "bytes"), l(kv, "windowNs"),
          l(kv, "errors"), l(kv, "reconnects"), l(kv, "p50Ns"), l(kv, "p99Ns"), l(kv, "serverCpuNs"),
          l(kv, "clientCpuNs"), l(kv, "serverPeakKib"), Boolean.parseBoolean(kv.get("peakReset")),
          first.isEmpty() ? null : first);
    }

    private static long l(Map<String, String> kv, String k) {
      return Long.parseLong(kv.get(k));
    }
  }

  public double gibPerSecond() {
    return m.bytes() / GIB / (m.windowNs() / 1e9);
  }

  public double requestsPerSecond() {
    return m.requests() / (m.windowNs() / 1e9);
  }

  public double p99Ms() {
    return m.p99Ns() / 1e6;
  }

  /** Server CPU seconds per GiB served; infinite when nothing was served. */
  public double cpuSecondsPerGib() {
    return m.bytes() == 0 ? Double.POSITIVE_INFINITY : (m.serverCpuNs() / 1e9) / (m.bytes() / GIB);
  }

  /** The server core's share spent in the server process over the window, in percent. */
  public double serverCorePercent() {
    return 100.0 * m.serverCpuNs() / m.windowNs();
  }

  /** The client core's share spent in the load generator over the window, in percent. */
  public double clientCorePercent() {
    return 100.0 * m.clientCpuNs() / m.windowNs();
  }

  public double peakMib() {
    return m.serverPeakKib() / 1024.0;
  }
}
