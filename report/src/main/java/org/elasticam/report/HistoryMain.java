package org.elasticam.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * {@code bin/elasticam history <eventlog> [--out FILE.html]}: the report of one run from its event
 * log (the AM's or the simulator's). Prints the summary; writes the HTML next to the log when that
 * is a local file, else in the current directory (or to {@code --out}), and prints its path. Exit
 * 0, 2 for a usage mistake or a file that is not an event log, 1 when the report cannot be written.
 */
public final class HistoryMain {

  private static final String PREFIX = "elasticam history: ";
  static final String USAGE = """
      usage: bin/elasticam history <eventlog.jsonl> [--out report.html]
        Reads a run's event log (written by the AM or by bin/elasticam simulate), prints a summary
        (how the run ended and why, executors, executor-seconds and idle executor-seconds, tasks,
        locality, removals, stages) and writes a self-contained HTML report with charts.
        The log: a local path, a file: URI, or any Hadoop file system URI (hdfs://nn:8020/...,
        read with the configuration HADOOP_CONF_DIR names). The report goes to --out, else beside
        a local log (its name + .html), else to the current directory.
      """;

  /** Where event logs are read from: local files here; the AM's client adds Hadoop's file systems. */
  public interface EventLogs {
    /** @throws NoSuchFileException when there is no such log */
    java.io.InputStream open(String location) throws IOException;

    /** The local file a log is read from, when it is one; the report goes beside it. */
    java.util.Optional<Path> localFile(String location);
  }

  /** Plain paths and {@code file:} URIs. */
  public static final EventLogs LOCAL = new EventLogs() {
    @Override
    public java.io.InputStream open(String location) throws IOException {
      Path p = localFile(location).orElseThrow(() -> new IOException("reading " + URI.create(location).getScheme()
          + ": URIs needs Hadoop's client: run bin/elasticam history with HADOOP_CONF_DIR set, or yarn jar"));
      return Files.newInputStream(p);
    }

    @Override
    public java.util.Optional<Path> localFile(String location) {
      return LocalFiles.of(location);
    }
  };

  private HistoryMain() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  public static int run(String[] args, PrintStream out, PrintStream err) {
    return run(args, out, err, LOCAL);
  }

  public static int run(String[] args, PrintStream out, PrintStream err, EventLogs logs) {
    String log = null;
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
          log = args[i];
        }
      }
    }
    if (log == null) {
      err.println(PREFIX + "name the event log to read (--help)");
      return 2;
    }
    RunHistory h;
    CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    try (BufferedReader r = new BufferedReader(new InputStreamReader(logs.open(log), utf8))) {
      h = RunHistory.read(r);
    } catch (NoSuchFileException | java.io.FileNotFoundException e) {
      err.println(PREFIX + "no such file: " + log);
      return 2;
    } catch (MalformedInputException e) {
      err.println(PREFIX + log + " is not UTF-8 text, so not an event log");
      return 2;
    } catch (RunHistory.BadEventLogException e) {
      err.println(PREFIX + log + " is not an event log: " + e.getMessage());
      return 2;
    } catch (IOException | IllegalArgumentException e) {
      err.println(PREFIX + "cannot read " + log + ": " + firstLine(e));
      return 2;
    }
    Path target = html != null ? html : defaultReport(log, logs);
    try {
      Files.writeString(target, RunReport.html(h, log), StandardCharsets.UTF_8);
    } catch (IOException e) {
      err.println(PREFIX + "cannot write " + target + ": " + firstLine(e));
      return 1;
    }
    out.print(RunReport.text(h));
    out.println("report: " + target.toAbsolutePath());
    return 0;
  }

  /** The log's name with .html for .jsonl, beside a local log or in the current directory. */
  private static Path defaultReport(String log, EventLogs logs) {
    String name = log.substring(log.lastIndexOf('/') + 1).replaceFirst("\\.jsonl?$", "") + ".html";
    return logs.localFile(log).map(p -> p.resolveSibling(name)).orElse(Path.of(name));
  }

  private static String firstLine(Exception e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return m.lines().findFirst().orElse("");
  }
}
