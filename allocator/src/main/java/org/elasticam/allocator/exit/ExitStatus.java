package org.elasticam.allocator.exit;

/**
 * YARN's container exit statuses ({@code org.apache.hadoop.yarn.api.records.ContainerExitStatus}),
 * copied as numbers so the core needs no Hadoop. Any other value is the process's own exit code.
 */
public final class ExitStatus {

  public static final int SUCCESS = 0;
  public static final int INVALID = -1000;
  public static final int ABORTED = -100;
  public static final int DISKS_FAILED = -101;
  public static final int PREEMPTED = -102;
  public static final int KILLED_EXCEEDED_VMEM = -103;
  public static final int KILLED_EXCEEDED_PMEM = -104;
  public static final int KILLED_BY_APPMASTER = -105;
  public static final int KILLED_BY_RESOURCEMANAGER = -106;
  public static final int KILLED_AFTER_APP_COMPLETION = -107;
  public static final int KILLED_BY_CONTAINER_SCHEDULER = -108;
  public static final int KILLED_FOR_EXCESS_LOGS = -109;

  /**
   * Ours, not YARN's: the launch command found no Java, or a Java older than the AM and executors
   * need, on the node, and exited before starting a JVM; its stderr says which and what to set.
   */
  public static final int JAVA_TOO_OLD = 40;

  private ExitStatus() {}

  /** YARN's name for a status, or "exit code N". */
  public static String name(int status) {
    return switch (status) {
      case SUCCESS -> "SUCCESS";
      case INVALID -> "INVALID";
      case ABORTED -> "ABORTED";
      case DISKS_FAILED -> "DISKS_FAILED";
      case PREEMPTED -> "PREEMPTED";
      case KILLED_EXCEEDED_VMEM -> "KILLED_EXCEEDED_VMEM";
      case KILLED_EXCEEDED_PMEM -> "KILLED_EXCEEDED_PMEM";
      case KILLED_BY_APPMASTER -> "KILLED_BY_APPMASTER";
      case KILLED_BY_RESOURCEMANAGER -> "KILLED_BY_RESOURCEMANAGER";
      case KILLED_AFTER_APP_COMPLETION -> "KILLED_AFTER_APP_COMPLETION";
      case KILLED_BY_CONTAINER_SCHEDULER -> "KILLED_BY_CONTAINER_SCHEDULER";
      case KILLED_FOR_EXCESS_LOGS -> "KILLED_FOR_EXCESS_LOGS";
      case JAVA_TOO_OLD -> "exit code 40 (the node's Java is missing or too old)";
      default -> "exit code " + status;
    };
  }
}
