package org.elasticam.startup;

import java.lang.management.ManagementFactory;

/**
 * A step of a container JVM's start (an executor's or the AM's): the JVM's uptime, the process's
 * CPU time and the classes loaded so far, read from the JVM's management beans.
 */
public record StartMark(long uptimeMs, long cpuMs, long classesLoaded) {

  /** Now; CPU time -1 where the JVM cannot tell it. */
  public static StartMark now() {
    long cpuNs = -1;
    java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      cpuNs = sun.getProcessCpuTime();
    }
    return new StartMark(ManagementFactory.getRuntimeMXBean().getUptime(), cpuNs < 0 ? -1 : cpuNs / 1_000_000,
        ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount());
  }
}
