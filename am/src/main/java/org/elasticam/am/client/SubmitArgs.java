package org.elasticam.am.client;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.elasticam.am.job.JobSpec;
import org.elasticam.conf.YarnKeys;

/**
 * {@code submit [options] <job> [job options]} or {@code submit [options] --jar J --class C [--]
 * [args…]}. The client's options are taken wherever they stand before the job's own arguments. A
 * user job's arguments start after {@code --}, or at the first word after {@code --jar J --class C}
 * that is none of our options; from there on every word is the job's, unchanged. One of our options
 * among them without {@code --} is refused: it was almost certainly meant for us.
 *
 * @param job null when only help was asked for
 */
public record SubmitArgs(JobSpec job, Map<String, String> conf, String name, boolean detach, boolean verbose,
    boolean help, boolean dryRun) {

  /** Flags that are spellings of a configuration key, as spark-submit users type them. */
  static final Map<String, String> KEY_FLAGS = Map.of(
      "--queue", YarnKeys.QUEUE.name(),
      "--principal", YarnKeys.PRINCIPAL.name(),
      "--keytab", YarnKeys.KEYTAB.name());

  private static final Set<String> VALUED = Set.of("--conf", "--name", "--queue", "--principal", "--keytab");
  private static final Set<String> SWITCHES = Set.of("--detach", "--verbose", "--dry-run", "--help", "-h");

  public static SubmitArgs parse(List<String> args) throws UsageException {
    Map<String, String> conf = new LinkedHashMap<>();
    List<String> jobWords = new ArrayList<>();
    List<String> ownArgs = new ArrayList<>();
    String name = null;
    boolean detach = false;
    boolean verbose = false;
    boolean help = false;
    boolean dryRun = false;
    boolean afterDashes = false;
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (afterDashes) {
        ownArgs.add(a);
        continue;
      }
      if (!ownArgs.isEmpty()) {
        if (isOurs(a)) {
          throw new UsageException(a + " comes after the job's own arguments (which start at '" + ownArgs.get(0)
              + "'): write it before them, or write -- before the arguments to pass " + a + " to the job");
        }
        ownArgs.add(a);
        continue;
      }
      switch (a) {
        case "--" -> afterDashes = true;
        case "--conf" -> {
          String kv = value(args, ++i, a);
          int eq = kv.indexOf('=');
          if (eq <= 0) {
            throw new UsageException("--conf takes key=value, got '" + kv + "'");
          }
          conf.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
        }
        case "--queue", "--principal", "--keytab" -> conf.put(KEY_FLAGS.get(a), value(args, ++i, a));
        case "--name" -> name = value(args, ++i, a);
        case "--detach" -> detach = true;
        case "--verbose" -> verbose = true;
        case "--dry-run" -> dryRun = true;
        case "--help", "-h" -> help = true;
        default -> {
          if (userJobNamed(jobWords) && !JobSpec.isUserJobOption(a)) {
            ownArgs.add(a);
          } else {
            jobWords.add(a);
            if (a.startsWith("--") && i + 1 < args.size()) {
              jobWords.add(args.get(++i));
            }
          }
        }
      }
    }
    if (help) {
      return new SubmitArgs(null, conf, name, detach, verbose, true, dryRun);
    }
    try {
      JobSpec job = JobSpec.parse(jobWords, ownArgs);
      return new SubmitArgs(job, conf, name == null ? defaultName(job) : name, detach, verbose, false, dryRun);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
  }

  /** Whether a word is one of the client's options or a user job's options. */
  static boolean isOurs(String word) {
    return VALUED.contains(word) || SWITCHES.contains(word) || JobSpec.isUserJobOption(word);
  }

  /** The words so far name a user job's jar and class, so a word that is not an option is an argument. */
  private static boolean userJobNamed(List<String> jobWords) {
    if (jobWords.isEmpty() || !JobSpec.isUserJobOption(jobWords.get(0))) {
      return false;
    }
    boolean jar = false;
    boolean cls = false;
    for (int i = 0; i + 1 < jobWords.size(); i += 2) {
      jar |= jobWords.get(i).equals("--jar");
      cls |= jobWords.get(i).equals("--class");
    }
    return jar && cls;
  }

  public SubmitArgs withJob(JobSpec j) {
    return new SubmitArgs(j, conf, name, detach, verbose, help, dryRun);
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
