package org.elasticam.bench.shuffle;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A process's CPU time and peak resident memory, from Linux's /proc. */
final class ProcStats {

  /** USER_HZ: the unit of utime and stime; 100 on every mainstream Linux build. */
  static final long TICKS_PER_SECOND = 100;

  private ProcStats() {}

  /** User plus system CPU time of every thread of {@code pid}, in nanoseconds (10 ms resolution). */
  static long cpuNanos(long pid) throws IOException {
    return cpuNanos(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
  }

  /** From a {@code /proc/<pid>/stat} line: fields 14 (utime) and 15 (stime), after the command's parentheses. */
  static long cpuNanos(String stat) {
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
    return ticks * (1_000_000_000L / TICKS_PER_SECOND);
  }

  /** The peak resident set since the process started or since {@link #resetPeak}, in KiB. */
  static long peakRssKib(long pid) throws IOException {
    return statusField(Files.readString(Path.of("/proc", Long.toString(pid), "status")), "VmHWM");
  }

  static long statusField(String status, String name) {
    for (String line : status.split("\n")) {
      if (line.startsWith(name + ":")) {
        return Long.parseLong(line.substring(name.length() + 1).replace("kB", "").trim());
      }
    }
    throw new IllegalArgumentException("no " + name + " in /proc status");
  }

  /** Resets VmHWM to the current RSS (Linux 4.0+: "5" to clear_refs); false when not allowed. */
  static boolean resetPeak(long pid) {
    try {
      Files.writeString(Path.of("/proc", Long.toString(pid), "clear_refs"), "5");
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
