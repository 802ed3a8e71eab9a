package org.elasticam.bench.shuffle;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/** The results as Markdown (the table, the ratios, the targets) and as CSV. */
public final class ResultTable {

  private ResultTable() {}

  private static final Comparator<CellResult> ORDER = Comparator.<CellResult>comparingInt(c -> c.shape().blockSize())
      .thenComparingInt(c -> c.m().clients()).thenComparing(CellResult::server);

  public static String markdown(List<CellResult> cells) {
    StringBuilder sb = new StringBuilder();
    sb.append("| block | clients | server | GiB/s | requests/s | p99 ms | server CPU s/GiB | peak server RSS MiB"
        + " | server core % | client core % | errors |\n");
    sb.append("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (CellResult c : sorted(cells)) {
      sb.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s | %.0f | %.0f | %.0f | %d |%n",
          c.shape().label(), c.m().clients(), c.server().label(), num(c.gibPerSecond()), count(c.requestsPerSecond()),
          num(c.p99Ms()), num(c.cpuSecondsPerGib()), c.peakMib(), c.serverCorePercent(), c.clientCorePercent(),
          c.m().errors()));
    }
    return sb.toString();
  }

  /** Ours against ShuffleHandler (throughput, and CPU per GiB inverted: above 1 is better) and against sendfile. */
  public static String ratios(List<CellResult> cells) {
    StringBuilder sb = new StringBuilder();
    sb.append("| block | clients | GiB/s ÷ ShuffleHandler | CPU/GiB: ShuffleHandler ÷ ours | GiB/s ÷ sendfile |\n");
    sb.append("|---|---:|---:|---:|---:|\n");
    for (CellResult ours : sorted(cells)) {
      if (ours.server() != ServerKind.OURS) {
        continue;
      }
      Optional<CellResult> h = peer(cells, ours, ServerKind.SHUFFLE_HANDLER);
      Optional<CellResult> s = peer(cells, ours, ServerKind.SENDFILE);
      sb.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s |%n", ours.shape().label(), ours.m().clients(),
          h.map(x -> times(ours.gibPerSecond() / x.gibPerSecond())).orElse("–"),
          h.map(x -> times(x.cpuSecondsPerGib() / ours.cpuSecondsPerGib())).orElse("–"),
          s.map(x -> percent(ours.gibPerSecond() / x.gibPerSecond())).orElse("–")));
    }
    return sb.toString();
  }

  /**
   * The targets (issue 31), each met or not, with the worst cell that decides it. {@code baseline}
   * holds ours' CPU seconds per GiB of an earlier run by (block bytes, clients), for "no worse than
   * before"; empty when there is none.
   */
  public static List<String> targets(List<CellResult> cells, Map<String, Double> baseline) {
    Predicate<CellResult> small = c -> c.shape().blockSize() <= 64 << 10;
    Predicate<CellResult> large = c -> c.shape().blockSize() >= 1 << 20;
    List<String> out = new ArrayList<>();
    out.add(worst(cells, small, ServerKind.SHUFFLE_HANDLER, 1.5,
        "≥ 1.5× ShuffleHandler's GiB/s on 4 and 64 KiB blocks at every client count"));
    out.add(worst(cells, small, ServerKind.SENDFILE, 0.6, "≥ 60 % of the sendfile baseline's GiB/s on 4 and 64 KiB blocks"));
    out.add(worst(cells, large, ServerKind.SHUFFLE_HANDLER, 1.0, "≥ 1.0× ShuffleHandler's GiB/s on 1–16 MiB blocks"));
    out.add(worst(cells, large, ServerKind.SENDFILE, 0.8, "≥ 80 % of the sendfile baseline's GiB/s on 1–16 MiB blocks"));
    out.add(p99At256(cells));
    long errors = 0;
    int n = 0;
    for (CellResult c : cells) {
      if (c.server() == ServerKind.OURS && c.m().clients() == 256) {
        errors += c.m().errors();
        n++;
      }
    }
    out.add(n == 0 ? "no errors at 256 clients: not measured"
        : (errors == 0 ? "MET" : "MISSED") + " — no errors at 256 clients: " + errors + " errors in " + n + " cells");
    out.add(cpuAgainst(cells, baseline));
    return out;
  }

  /** Ours' p99 at 256 clients against ShuffleHandler's, cell by cell: the largest ratio decides. */
  private static String p99At256(List<CellResult> cells) {
    String what = "p99 at 256 clients no worse than ShuffleHandler's in every cell";
    CellResult worstCell = null;
    double worst = 0;
    for (CellResult ours : cells) {
      if (ours.server() != ServerKind.OURS || ours.m().clients() != 256) {
        continue;
      }
      Optional<CellResult> h = peer(cells, ours, ServerKind.SHUFFLE_HANDLER);
      if (h.isPresent() && ours.p99Ms() / h.get().p99Ms() >= worst) {
        worst = ours.p99Ms() / h.get().p99Ms();
        worstCell = ours;
      }
    }
    if (worstCell == null) {
      return what + ": not measured";
    }
    CellResult h = peer(cells, worstCell, ServerKind.SHUFFLE_HANDLER).orElseThrow();
    return String.format(Locale.ROOT, "%s — %s: highest %s of ShuffleHandler's (%s: %s ms against %s ms)",
        worst <= 1.0 ? "MET" : "MISSED", what, times(worst), worstCell.shape().label(), num(worstCell.p99Ms()),
        num(h.p99Ms()));
  }

  /** Ours' CPU seconds per GiB against the baseline run's, cell by cell: the largest ratio decides. */
  private static String cpuAgainst(List<CellResult> cells, Map<String, Double> baseline) {
    String what = "CPU per GiB no worse than the baseline run's in any cell";
    CellResult worstCell = null;
    double worst = 0;
    for (CellResult ours : cells) {
      Double before = baseline.get(ours.shape().blockSize() + "/" + ours.m().clients());
      if (ours.server() == ServerKind.OURS && before != null && ours.cpuSecondsPerGib() / before >= worst) {
        worst = ours.cpuSecondsPerGib() / before;
        worstCell = ours;
      }
    }
    if (worstCell == null) {
      return what + ": no baseline given";
    }
    return String.format(Locale.ROOT, "%s — %s: highest %s of the baseline's (%s, %d clients: %s s/GiB against %s)",
        worst <= 1.0 ? "MET" : "MISSED", what, times(worst), worstCell.shape().label(), worstCell.m().clients(),
        num(worstCell.cpuSecondsPerGib()), num(baseline.get(worstCell.shape().blockSize() + "/" + worstCell.m().clients())));
  }

  /** Ours' CPU seconds per GiB by "block bytes/clients", from a CSV this class wrote. */
  public static Map<String, Double> oursCpuFromCsv(List<String> lines) {
    Map<String, Double> out = new HashMap<>();
    List<String> header = List.of(lines.get(0).split(","));
    int server = header.indexOf("server");
    int block = header.indexOf("block_bytes");
    int clients = header.indexOf("clients");
    int cpu = header.indexOf("cpu_s_per_gib");
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",");
      if (f.length > cpu && f[server].equals(ServerKind.OURS.key())) {
        out.put(f[block] + "/" + f[clients], Double.parseDouble(f[cpu]));
      }
    }
    return out;
  }

  private static String worst(List<CellResult> cells, Predicate<CellResult> which, ServerKind against, double target,
      String what) {
    CellResult worstCell = null;
    double worst = Double.POSITIVE_INFINITY;
    for (CellResult ours : cells) {
      if (ours.server() != ServerKind.OURS || !which.test(ours)) {
        continue;
      }
      Optional<CellResult> p = peer(cells, ours, against);
      if (p.isPresent()) {
        double r = ours.gibPerSecond() / p.get().gibPerSecond();
        if (r < worst) {
          worst = r;
          worstCell = ours;
        }
      }
    }
    if (worstCell == null) {
      return what + ": not measured";
    }
    return String.format(Locale.ROOT, "%s — %s: lowest %s (%s, %d clients)", worst >= target ? "MET" : "MISSED", what,
        against == ServerKind.SENDFILE ? percent(worst) : times(worst), worstCell.shape().label(),
        worstCell.m().clients());
  }

  public static String csv(List<CellResult> cells) {
    StringBuilder sb = new StringBuilder("server,block_bytes,clients,requests,bytes,window_ns,errors,reconnects,"
        + "p50_ns,p99_ns,server_cpu_ns,client_cpu_ns,server_peak_kib,peak_reset,gib_per_s,requests_per_s,"
        + "cpu_s_per_gib,first_error\n");
    for (CellResult c : sorted(cells)) {
      CellResult.Measured m = c.m();
      sb.append(String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%s,%.4f,%.1f,%.4f,%s%n",
          c.server().key(), c.shape().blockSize(), m.clients(), m.requests(), m.bytes(), m.windowNs(), m.errors(),
          m.reconnects(), m.p50Ns(), m.p99Ns(), m.serverCpuNs(), m.clientCpuNs(), m.serverPeakKib(), m.peakReset(),
          c.gibPerSecond(), c.requestsPerSecond(), c.cpuSecondsPerGib(),
          m.firstError() == null ? "" : '"' + m.firstError().replace("\"", "'") + '"'));
    }
    return sb.toString();
  }

  private static List<CellResult> sorted(List<CellResult> cells) {
    List<CellResult> s = new ArrayList<>(cells);
    s.sort(ORDER);
    return s;
  }

  private static Optional<CellResult> peer(List<CellResult> cells, CellResult ours, ServerKind kind) {
    return cells.stream().filter(c -> c.server() == kind && c.shape().equals(ours.shape())
        && c.m().clients() == ours.m().clients()).findFirst();
  }

  /** Three significant digits, no exponent. */
  static String num(double v) {
    if (Double.isInfinite(v) || Double.isNaN(v)) {
      return "–";
    }
    double a = Math.abs(v);
    int decimals = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3;
    return String.format(Locale.ROOT, "%." + decimals + "f", v);
  }

  static String count(double v) {
    return String.format(Locale.ROOT, "%,.0f", v);
  }

  static String times(double r) {
    return String.format(Locale.ROOT, "%.2f×", r);
  }

  static String percent(double r) {
    return String.format(Locale.ROOT, "%.0f %%", 100 * r);
  }
}
