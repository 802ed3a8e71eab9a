package org.elasticam.embedded.run;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * RunMain's command line, written by bin/elasticam: its own options, then {@code --}, then the
 * client's submit arguments (job, job options, --conf…).
 */
record RunArgs(Path appJar, Path classpathFile, String java, String command, Path workDir, int nodes,
    int nodeMemoryMb, int nodeVcores, List<String> clientArgs, boolean help, boolean helpAsked, boolean dryRun,
    Optional<Path> shuffleJar) {

  static final String USAGE_HEAD = String.join("\n",
      "usage: bin/elasticam run [options] <job> [job options]",
      "       bin/elasticam run [options] --jar J --class C [--] [args...]",
      "Starts a YARN ResourceManager and NodeManagers in one JVM (on 127.0.0.1, 127.0.0.2, ...), runs the job",
      "on them with the same client `submit` uses, prints its progress and a summary, and stops the cluster.");
  static final String USAGE_TAIL = String.join("\n",
      "cluster (environment): ELASTICAM_NODES (2), ELASTICAM_NODE_MEMORY_MB (4096), ELASTICAM_NODE_VCORES (4),",
      "  ELASTICAM_WORK_DIR (target/elasticam-run)");

  static RunArgs parse(List<String> argv) {
    Path appJar = null;
    Path cpFile = null;
    String java = "java";
    String command = "bin/elasticam";
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
        case "--command" -> command = argv.get(++i);
        case "--shuffle-jar" -> shuffleJar = Path.of(argv.get(++i));
        default -> throw new IllegalArgumentException("unknown launcher option " + a);
      }
    }
    if (appJar == null || cpFile == null) {
      throw new IllegalArgumentException("run needs --app-jar and --classpath-file (use bin/elasticam run)");
    }
    List<String> client = new ArrayList<>(argv.subList(Math.min(i, argv.size()), argv.size()));
    // Before a --, one of our options is never a job's argument (the client refuses it there).
    List<String> options = client.contains("--") ? client.subList(0, client.indexOf("--")) : client;
    boolean helpAsked = options.contains("--help") || options.contains("-h");
    if (options.contains("--detach") && !helpAsked) {
      throw new IllegalArgumentException("run stops its cluster when the job ends, so a job cannot outlive it:"
          + " --detach is for bin/elasticam submit on a cluster of your own");
    }
    Path workDir = Path.of(env("ELASTICAM_WORK_DIR", "target/elasticam-run")).toAbsolutePath();
    // The NodeManagers' directories go into their launch scripts inside double quotes.
    for (String c : new String[] {"$", "`", "\"", "\\"}) {
      if (workDir.toString().contains(c)) {
        throw new IllegalArgumentException("the embedded cluster's directory " + workDir + " holds " + c + ", which"
            + " YARN's container launch scripts cannot carry: set ELASTICAM_WORK_DIR to a path without it");
      }
    }
    return new RunArgs(appJar, cpFile, java, command, workDir,
        intEnv("ELASTICAM_NODES", 2), intEnv("ELASTICAM_NODE_MEMORY_MB", 4096), intEnv("ELASTICAM_NODE_VCORES", 4),
        client, client.isEmpty() || helpAsked, helpAsked, options.contains("--dry-run"), Optional.ofNullable(shuffleJar));
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
