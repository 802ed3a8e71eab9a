package org.elasticam.am.client;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.elasticam.am.job.JobSpec;

/**
 * {@code submit <job> [job options] [--conf k=v]… [--name N] [--detach] [--verbose]}: the
 * client's own flags are taken out wherever they appear (before a user job's own arguments); the
 * rest is the job.
 */
public record SubmitArgs(JobSpec job, Map<String, String> conf, String name, boolean detach, boolean verbose) {

  public static SubmitArgs parse(List<String> args) throws UsageException {
    Map<String, String> conf = new LinkedHashMap<>();
    List<String> jobArgs = new ArrayList<>();
    String name = null;
    boolean detach = false;
    boolean verbose = false;
    boolean userArgs = false;
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (userArgs) {
        jobArgs.add(a);
        continue;
      }
      switch (a) {
        case "--conf" -> {
          String kv = value(args, ++i, "--conf");
          int eq = kv.indexOf('=');
          if (eq <= 0) {
            throw new UsageException("--conf takes key=value, got '" + kv + "'");
          }
          conf.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
        }
        case "--name" -> name = value(args, ++i, "--name");
        case "--detach" -> detach = true;
        case "--verbose" -> verbose = true;
        default -> {
          jobArgs.add(a);
          if (a.equals("--class") && i + 1 < args.size()) {
            jobArgs.add(args.get(++i));
            userArgs = jobArgs.contains("--jar");
          } else if (a.equals("--jar") && i + 1 < args.size()) {
            jobArgs.add(args.get(++i));
            userArgs = jobArgs.contains("--class");
          }
        }
      }
    }
    try {
      JobSpec job = JobSpec.parse(jobArgs);
      return new SubmitArgs(job, conf, name == null ? defaultName(job) : name, detach, verbose);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  public SubmitArgs withJob(JobSpec j) {
    return new SubmitArgs(j, conf, name, detach, verbose);
  }

  private static String value(List<String> args, int i, String flag) throws UsageException {
    if (i >= args.size()) {
      throw new UsageException(flag + " needs a value");
    }
    return args.get(i);
  }

  private static String defaultName(JobSpec job) {
    return switch (job.kind()) {
      case SLEEP -> "elasticam sleep";
      case TRACE -> "elasticam trace " + java.nio.file.Path.of(job.required("file")).getFileName();
      case WORDCOUNT -> "elasticam wordcount " + job.required("input");
      case STREAMING -> "elasticam streaming " + job.required("rate");
      case USER -> "elasticam " + job.required("class");
    };
  }
}
