package org.elasticam.it;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;

/**
 * What a fault test measured, as one JSON file per RELIABILITY.md row under {@code
 * target/reliability/}: the row's test, the run it comes from ({@code default} for the CI run, else
 * the profile), the date and commit, the figures by name and the sentence the table shows.
 * {@code bench/scripts/reliability-table.py} collects them into RELIABILITY.md.
 */
final class Figures {

  static final Path DIR = Path.of("target", "reliability");
  private static final ObjectMapper JSON = new ObjectMapper();

  private Figures() {}

  /**
   * Writes the row's figures and prints the summary.
   *
   * @param row the test (and case) the RELIABILITY.md row names, e.g. {@code PartitionIT.aNodeCutOff…}
   * @param run {@code default} when CI's {@code mvn -B verify} runs it, else the profile ({@code netns})
   * @param summary the figures in a sentence, as the table's "measured" cell shows them
   * @param figures name, value, name, value, …: numbers (seconds, counts, bytes) a script can read
   */
  static void record(String row, String run, String summary, Object... figures) {
    ObjectNode o = JSON.createObjectNode();
    o.put("row", row);
    o.put("run", run);
    o.put("date", LocalDate.now(ZoneOffset.UTC).toString());
    o.put("commit", commit());
    o.put("summary", summary);
    ObjectNode f = o.putObject("figures");
    for (int i = 0; i + 1 < figures.length; i += 2) {
      f.set((String) figures[i], JSON.valueToTree(figures[i + 1]));
    }
    System.out.println(row + ": " + summary);
    try {
      Files.createDirectories(DIR);
      Files.writeString(DIR.resolve(row + ".json"), JSON.writeValueAsString(o) + "\n", StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Seconds between two event timestamps (ms), to a tenth. */
  static double seconds(long fromMs, long toMs) {
    return Math.round((toMs - fromMs) / 100.0) / 10.0;
  }

  /** The commit the tests run at, {@code +changes} when tracked files differ from it; else unknown. */
  private static String commit() {
    String head = git("rev-parse", "--short", "HEAD");
    if (head.isEmpty()) {
      return "unknown";
    }
    return git("status", "--porcelain", "--untracked-files=no").isEmpty() ? head : head + "+changes";
  }

  private static String git(String... args) {
    String[] command = new String[args.length + 1];
    command[0] = "git";
    System.arraycopy(args, 0, command, 1, args.length);
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : "";
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }
}
