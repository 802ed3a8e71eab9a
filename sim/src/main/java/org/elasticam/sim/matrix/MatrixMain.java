package org.elasticam.sim.matrix;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The robustness matrix's command (run by {@code bench/scripts/robustness-matrix.py}):
 *
 * <pre>
 * run --traces DIR [--slice tuning|heldout|all] [--policies spark,elastic] [--part I/N] [--match S]
 *     [--threads N] [--reuse EARLIER] --out FILE
 *                                   runs the cases (part I of N, those whose id contains S), appending
 *                                   one JSON line per case to FILE and skipping cases FILE already holds;
 *                                   with --reuse, the other policies' and the oracle's figures are taken
 *                                   from EARLIER's line for the same case instead of run again
 * list --traces DIR [--slice S]     prints the cases' ids and conditions
 * show ID --traces DIR [--policy P] --out DIR   runs one case as simulate does, with every output
 * report FILE [--policy P] [--baseline B] [--cases]   the summary per slice (and every case with --cases)
 * </pre>
 */
public final class MatrixMain {

  private MatrixMain() {}

  public static void main(String[] args) throws Exception {
    System.exit(run(args, System.out, System.err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    if (args.length == 0 || Arrays.asList(args).contains("--help")) {
      out.println("usage: MatrixMain run|list|show|report ... (see the class's Javadoc)");
      return args.length == 0 ? 2 : 0;
    }
    Options o = new Options(Arrays.copyOfRange(args, 1, args.length));
    switch (args[0]) {
      case "run" -> runCases(o, err);
      case "list" -> cases(o).forEach(c -> out.println(c.id() + "  " + c.conditions().describe()));
      case "show" -> {
        return show(o, out, err);
      }
      case "report" -> out.print(MatrixReport.markdown(read(o.files), o.value("--policy", "elastic"),
          o.value("--baseline", "spark"), o.has("--cases")));
      default -> {
        err.println("unknown command " + args[0] + " (run, list, show, report)");
        return 2;
      }
    }
    return 0;
  }

  /**
   * One case with every output {@code simulate --out} writes (event logs, CSV, charts), for looking
   * at why it came out as it did; a synthetic workload's trace is written beside them.
   */
  private static int show(Options o, PrintStream out, PrintStream err) throws IOException {
    String id = o.files.isEmpty() ? "" : o.files.get(0);
    MatrixCase c = cases(o).stream().filter(k -> k.id().equals(id)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no case " + id + " (see list)"));
    Path dir = Path.of(o.value("--out", "matrix-case"));
    Files.createDirectories(dir);
    Path traces = Path.of(o.value("--traces", "../shared/eventlogs"));
    Path trace = traces.resolve(c.workload() + MatrixRunner.TRACE_SUFFIX);
    if (c.workload().contains("#")) {
      trace = dir.resolve(c.workload().replace('#', '-') + MatrixRunner.TRACE_SUFFIX);
      TraceFiles.write(new MatrixRunner(traces, List.of()).workload(c.workload()), trace);
    }
    List<String> args = new ArrayList<>(List.of("--trace", trace.toString(), "--policy", o.value("--policy", "all"),
        "--out", dir.toString()));
    args.addAll(c.conditions().simulateArgs());
    out.println("bin/elasticam simulate " + String.join(" ", args));
    return org.elasticam.sim.SimulateMain.run(args.toArray(String[]::new), out, err);
  }

  private static List<MatrixCase> cases(Options o) {
    Path traces = Path.of(o.value("--traces", "../shared/eventlogs"));
    List<String> names = MatrixRunner.traceNames(traces);
    String slice = o.value("--slice", "all");
    List<MatrixCase> all = new ArrayList<>();
    for (String s : RobustnessMatrix.SLICES) {
      if (slice.equals("all") || slice.equals(s)) {
        all.addAll(RobustnessMatrix.cases(s, names));
      }
    }
    String match = o.value("--match", "");
    String[] part = o.value("--part", "1/1").split("/");
    int i = Integer.parseInt(part[0]);
    int n = Integer.parseInt(part[1]);
    List<MatrixCase> chosen = new ArrayList<>();
    for (int k = 0; k < all.size(); k++) {
      if (k % n == i - 1 && all.get(k).id().contains(match)) {
        chosen.add(all.get(k));
      }
    }
    return chosen;
  }

  private static void runCases(Options o, PrintStream err) throws IOException, InterruptedException,
      ExecutionException {
    Path file = Path.of(o.value("--out", "matrix.jsonl"));
    Set<String> done = new HashSet<>();
    if (Files.exists(file)) {
      read(List.of(file.toString())).forEach(r -> done.add(r.matrixCase().id()));
    }
    List<MatrixCase> todo = cases(o).stream().filter(c -> !done.contains(c.id())).toList();
    MatrixRunner runner = new MatrixRunner(Path.of(o.value("--traces", "../shared/eventlogs")),
        List.of(o.value("--policies", "spark,elastic").split(",")));
    Map<String, CaseResult> earlier = new HashMap<>();
    if (o.has("--reuse")) {
      read(List.of(o.value("--reuse", ""))).forEach(r -> earlier.put(r.matrixCase().id(), r));
    }
    int threads = Integer.parseInt(o.value("--threads", "1"));
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
        StandardOpenOption.APPEND)) {
      List<Future<CaseResult>> futures = new ArrayList<>();
      todo.forEach(c -> futures.add(pool.submit(() -> runner.run(c, earlier.get(c.id())))));
      for (int k = 0; k < futures.size(); k++) {
        CaseResult r = futures.get(k).get();
        w.write(MatrixJson.line(r));
        w.newLine();
        w.flush();
        // Progress only: no figures, so that watching a run never shows the held-out slice's results.
        err.printf("%d/%d %s%n", k + 1, todo.size(), r.matrixCase().id());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  static List<CaseResult> read(List<String> files) throws IOException {
    List<CaseResult> out = new ArrayList<>();
    for (String f : files) {
      for (String line : Files.readAllLines(Path.of(f), StandardCharsets.UTF_8)) {
        if (!line.isBlank()) {
          out.add(MatrixJson.parse(line));
        }
      }
    }
    return out;
  }

  /** {@code --name value} pairs and bare file names. */
  private static final class Options {
    final List<String> files = new ArrayList<>();
    private final List<String> args;

    Options(String[] args) {
      this.args = List.of(args);
      for (int i = 0; i < args.length; i++) {
        if (args[i].startsWith("--")) {
          if (!args[i].equals("--cases")) {
            i++;
          }
        } else {
          files.add(args[i]);
        }
      }
    }

    boolean has(String name) {
      return args.contains(name);
    }

    String value(String name, String dflt) {
      int i = args.indexOf(name);
      return i >= 0 && i + 1 < args.size() ? args.get(i + 1) : dflt;
    }
  }
}
