package org.elasticam.embedded.run;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * RunMain's command line, written by bin/elasticam: its own options, then {@code --}, then the
 * client's submit arguments (job, job options, --conf…).
 */
record RunArgs(Path appJar, Path classpathFile, String java, Path workDir, int nodes, int nodeMemoryMb,
    int nodeVcores, List<String> clientArgs, boolean help, boolean helpAsked, Optional<Path> shuffleJar) {

  static final String USAGE = String.join("\n",
      "usage: bin/elasticam run [cluster options] <job> [job options] [--conf key=value]... [--verbose]",
      "cluster options (environment): ELASTICAM_NODES (2), ELASTICAM_NODE_MEMORY_MB (4096),",
      "  ELASTICAM_NODE_VCORES (4), ELASTICAM_WORK_DIR (target/elasticam-run)",
      "jobs:",
      "  sleep --stages N --tasks N --task-ms N [--fail-rate P] [--seed S]",
      "  trace --file F [--time-scale S]",
      "  wordcount --input P --output P [--reducers N] [--pause-ms N]",
      "  --jar J --class C [args...]");

  static RunArgs parse(List<String> argv) {
    Path appJar = null;
    Path cpFile = null;
    String java = "java";
    Path shuffleJar = null;
    int i = 0;
    for (; i < argv.size(); i++) {
      String a = argv.get(i);
      if (a.equals("--")) {
        i++;
        break;
      }
      if (i + 1 >= argv.size()) {
        throw new IllegalArgumentException(a + " needs a value");
      }
      switch (a) {
        case "--app-jar" -> appJar = Path.of(argv.get(++i));
        case "--classpath-file" -> cpFile = Path.of(argv.get(++i));
        case "--java" -> java = argv.get(++i);
        case "--shuffle-jar" -> shuffleJar = Path.of(argv.get(++i));
        default -> throw new IllegalArgumentException("unknown launcher option " + a);
      }
    }
    if (appJar == null || cpFile == null) {
      throw new IllegalArgumentException("run needs --app-jar and --classpath-file (use bin/elasticam run)");
    }
    List<String> client = new ArrayList<>(argv.subList(Math.min(i, argv.size()), argv.size()));
    boolean helpAsked = client.contains("--help") || client.contains("-h");
    return new RunArgs(appJar, cpFile, java, Path.of(env("ELASTICAM_WORK_DIR", "target/elasticam-run")),
        intEnv("ELASTICAM_NODES", 2), intEnv("ELASTICAM_NODE_MEMORY_MB", 4096), intEnv("ELASTICAM_NODE_VCORES", 4),
        client, client.isEmpty() || helpAsked, helpAsked, Optional.ofNullable(shuffleJar));
  }

  private static String env(String name, String dflt) {
    String v = System.getenv(name);
    return v == null || v.isBlank() ? dflt : v;
  }

  private static int intEnv(String name, int dflt) {
    String v = env(name, String.valueOf(dflt));
    try {
      int n = Integer.parseInt(v.trim());
      if (n < 1) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a whole number >= 1, got '" + v + "'");
    }
  }
}
