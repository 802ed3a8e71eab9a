package org.elasticam.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * {@code bin/elasticam history <eventlog> [--out FILE.html]}: the report of one run from its event
 * log (the AM's or the simulator's). Prints the summary; writes the HTML next to the log (or to
 * {@code --out}) and prints its path. Exit 0, 2 for a usage mistake or a file that is not an event
 * log, 1 when the report cannot be written.
 */
public final class HistoryMain {

  private static final String PREFIX = "elasticam history: ";
  static final String USAGE = """
      usage: bin/elasticam history <eventlog.jsonl> [--out report.html]
        Reads a run's event log (written by the AM or by bin/elasticam simulate), prints a summary
        (executors, executor-seconds and idle executor-seconds, tasks, locality, removals, stages)
        and writes a self-contained HTML report with charts (default: the log's name + .html).
      """;

  private HistoryMain() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  public static int run(String[] args, PrintStream out, PrintStream err) {
    Path log = null;
    Path html = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "-h", "--help" -> {
          out.print(USAGE);
          return 0;
        }
        case "--out" -> {
          if (i + 1 == args.length) {
            err.println(PREFIX + "--out needs a file name");
            return 2;
          }
          html = Path.of(args[++i]);
        }
        default -> {
          if (args[i].startsWith("-") || log != null) {
            err.println(PREFIX + "unexpected argument '" + args[i] + "' (--help)");
            return 2;
          }
          log = Path.of(args[i]);
        }
      }
    }
    if (log == null) {
      err.println(PREFIX + "name the event log to read (--help)");
      return 2;
    }
    RunHistory h;
    try (BufferedReader r = Files.newBufferedReader(log, StandardCharsets.UTF_8)) {
      h = RunHistory.read(r);
    } catch (NoSuchFileException e) {
      err.println(PREFIX + "no such file: " + log);
      return 2;
    } catch (MalformedInputException e) {
      err.println(PREFIX + log + " is not UTF-8 text, so not an event log");
      return 2;
    } catch (RunHistory.BadEventLogException e) {
      err.println(PREFIX + log + " is not an event log: " + e.getMessage());
      return 2;
    } catch (IOException e) {
      err.println(PREFIX + "cannot read " + log + ": " + e.getMessage());
      return 2;
    }
    Path target = html != null ? html : log.resolveSibling(log.getFileName().toString().replaceFirst("\\.jsonl?$", "")
        + ".html");
    try {
      Files.writeString(target, RunReport.html(h, log.toString()), StandardCharsets.UTF_8);
    } catch (IOException e) {
      err.println(PREFIX + "cannot write " + target + ": " + e.getMessage());
      return 1;
    }
    out.print(RunReport.text(h));
    out.println("report: " + target.toAbsolutePath());
    return 0;
  }
}
