package org.elasticam.allocator.exit;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Judges a completed container: did it fail because of the application, because of its node, or
 * neither? One table, one place.
 *
 * <p>Differences from Spark, on purpose: memory kills (pmem/vmem) count as application failures,
 * so an application that keeps outgrowing its containers stops instead of cycling forever; they
 * do not blame the node, since any node would have killed it.
 */
public final class ExitClassifier {

  private static final Pattern MEMORY_USAGE = Pattern.compile(
      "([0-9.]+ ?[KMGTP]?B of [0-9.]+ ?[KMGTP]?B (physical|virtual) memory used)");

  private ExitClassifier() {}

  /**
   * @param releasedByUs the AM released or killed this container itself
   * @param appEnding the application is shutting down, so exits are expected
   */
  public static ExitVerdict classify(String container, String host, int status, String diagnostics,
      boolean releasedByUs, boolean appEnding) {
    String where = "Container " + container + " on " + host;
    String diag = diagnostics == null || diagnostics.isBlank() ? "" : " Diagnostics: " + oneLine(diagnostics);
    if (releasedByUs) {
      return new ExitVerdict(false, false, "released", where + " exited after the AM released it.");
    }
    if (appEnding) {
      return new ExitVerdict(false, false, "app_end", where + " exited while the application was ending.");
    }
    return switch (status) {
      case ExitStatus.SUCCESS -> new ExitVerdict(false, false, "lost",
          where + " exited with status 0 before it was asked to stop (a YARN event, not an error in the job)." + diag);
      case ExitStatus.PREEMPTED, ExitStatus.KILLED_BY_CONTAINER_SCHEDULER -> new ExitVerdict(false, false, "preempted",
          where + " was preempted by YARN (" + ExitStatus.name(status) + "); it is replaced and not counted as a failure.");
      case ExitStatus.KILLED_EXCEEDED_PMEM -> memory(where, diagnostics, "physical");
      case ExitStatus.KILLED_EXCEEDED_VMEM -> memory(where, diagnostics, "virtual");
      case ExitStatus.DISKS_FAILED -> new ExitVerdict(false, true, "disks", where + " was stopped because its"
          + " NodeManager's disks failed (DISKS_FAILED); not counted as a failure, but the node is avoided for"
          + " elasticam.yarn.excludeOnFailure.timeout." + diag);
      case ExitStatus.ABORTED, ExitStatus.KILLED_BY_APPMASTER,
          ExitStatus.KILLED_BY_RESOURCEMANAGER, ExitStatus.KILLED_AFTER_APP_COMPLETION -> new ExitVerdict(false, false,
          "lost",
          where + " was stopped by YARN (" + ExitStatus.name(status) + "), not by an error in the job." + diag);
      case ExitStatus.JAVA_TOO_OLD -> new ExitVerdict(true, true, "failed", where + ": " + javaCheckMessage(diagnostics)
          .orElse("its Java is missing or older than ElasticAM needs; set elasticam.executorEnv.JAVA_HOME to a Java 17"
              + " home on the nodes") + ".");
      case ExitStatus.KILLED_FOR_EXCESS_LOGS -> new ExitVerdict(true, false, "failed",
          where + " was killed for writing too many logs (KILLED_FOR_EXCESS_LOGS)." + diag);
      default -> new ExitVerdict(true, true, "failed",
          where + " failed with " + ExitStatus.name(status) + "; counted against the node." + diag);
    };
  }

  private static ExitVerdict memory(String where, String diagnostics, String kind) {
    String usage = usage(diagnostics, kind);
    String advice = kind.equals("physical")
        ? "Raise elasticam.executor.memoryOverhead (or elasticam.executor.memory)."
        : "Raise elasticam.executor.memoryOverhead, or raise yarn.nodemanager.vmem-pmem-ratio or turn off"
            + " yarn.nodemanager.vmem-check-enabled on the cluster.";
    return new ExitVerdict(true, false, "memory", where + " was killed by YARN for exceeding " + kind
        + " memory limits" + (usage.isEmpty() ? "" : ": " + usage) + ". " + advice);
  }

  private static final Pattern JAVA_CHECK = Pattern.compile("elasticam: ((?:the AM|an executor) container[^\n]*)");

  /**
   * What a container's launch command said when it found the node's Java missing or too old: the
   * NodeManager puts the tail of the container's stderr into its diagnostics.
   */
  public static java.util.Optional<String> javaCheckMessage(String diagnostics) {
    Matcher m = diagnostics == null ? null : JAVA_CHECK.matcher(diagnostics);
    return m != null && m.find() ? java.util.Optional.of(m.group(1).strip()) : java.util.Optional.empty();
  }

  /** The "X of Y physical memory used" fragment of YARN's diagnostics, or "". */
  static String usage(String diagnostics, String kind) {
    if (diagnostics == null) {
      return "";
    }
    Matcher m = MEMORY_USAGE.matcher(diagnostics);
    while (m.find()) {
      if (m.group(2).equals(kind)) {
        return m.group(1);
      }
    }
    return "";
  }

  private static String oneLine(String s) {
    String flat = s.strip().replaceAll("\\s*\\n\\s*", " | ");
    return flat.length() > 500 ? flat.substring(0, 500) + "…" : flat;
  }
}
