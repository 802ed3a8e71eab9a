package org.elasticam.am.client;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.elasticam.allocator.exit.ExitClassifier;
import org.elasticam.am.conf.HadoopConfigSource;
import org.elasticam.conf.ConfigProblem;
import org.elasticam.conf.ElasticConf;
import org.elasticam.conf.UnknownKeys;

/**
 * The command-line client, a Hadoop {@link Tool} (so {@code -D}, {@code -conf}, {@code -fs} and
 * {@code -jt} work): {@code submit}, {@code status <appId>}, {@code kill <appId>}. Exit codes: 0
 * when the application succeeded (or the command did), 1 for a failed application or a runtime
 * error, 2 for a usage or configuration error — always with one clear line, and a stack trace only
 * with {@code --verbose}.
 */
public final class ElasticamCli extends Configured implements Tool {

  public static final int OK = 0;
  public static final int FAILED = 1;
  public static final int USAGE = 2;

  /** Set by a launcher that found no cluster configuration: help works, commands that need a cluster say so. */
  static final String NO_CLUSTER_CONF = "elasticam.client.noClusterConf";
  /** How the user runs this client, for the commands it prints ({@code bin/elasticam}); else {@code yarn jar}. */
  static final String COMMAND = "elasticam.command";
  /** Set by bin/elasticam run: the cluster ends with the command, so no job can be left running. */
  static final String EMBEDDED = "elasticam.client.embedded";

  /** The help of every command: what each does, then the jobs and options, shared with bin/elasticam run. */
  String usage() {
    String c = commandPrefix();
    return String.join("\n",
        "usage: " + c + " submit [options] <job> [job options]",
        "       " + c + " submit [options] --jar J --class C [--] [args...]",
        "       " + c + " status <applicationId>",
        "       " + c + " kill <applicationId>",
        "       " + c + " history <eventlog> [--out report.html]",
        "submit, status and kill talk to the cluster whose configuration HADOOP_CONF_DIR names (with yarn jar,",
        "hadoop generic options such as -D key=value go before the command). submit ships the job, follows it",
        "to the end and prints a summary; history reports on a run from its event log.",
        jobsHelp());
  }

  /** The jobs and options section, a resource of the distributable jar so that {@code run} prints the same. */
  static String jobsHelp() {
    try (java.io.InputStream in = ElasticamCli.class.getResourceAsStream("jobs-help.txt")) {
      return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    } catch (IOException | NullPointerException e) {
      throw new IllegalStateException("the jar lacks org/elasticam/am/client/jobs-help.txt", e);
    }
  }

  private final PrintStream out;
  private final PrintStream err;
  private final Path appJar;

  public ElasticamCli(Configuration conf, PrintStream out, PrintStream err, Path appJar) {
    super(conf);
    this.out = out;
    this.err = err;
    this.appJar = appJar;
  }

  public static void main(String[] args) throws Exception {
    System.exit(runWithGenericOptions(new YarnConfiguration(), args, System.out, System.err));
  }

  private static final java.util.Set<String> COMMANDS = java.util.Set.of("submit", "status", "kill", "history", "help",
      "--help", "-h");

  /**
   * Hadoop's generic options ({@code -D key=value}, {@code -conf F}, {@code -fs URI}) before the
   * command, as {@code yarn jar} users write them; everything from the command on reaches us
   * untouched. ToolRunner would parse the whole line, and its parser drops every {@code --}, the
   * one that ends our options and any the user's job takes as an argument.
   */
  static int runWithGenericOptions(Configuration conf, String[] args, PrintStream out, PrintStream err)
      throws IOException {
    int command = 0;
    while (command < args.length && !COMMANDS.contains(args[command])) {
      command++;
    }
    String[] generic = Arrays.copyOfRange(args, 0, command);
    String[] ours = Arrays.copyOfRange(args, command, args.length);
    if (generic.length > 0) {
      String[] left = new org.apache.hadoop.util.GenericOptionsParser(conf, generic).getRemainingArgs();
      if (left.length > 0) {
        err.println("elasticam: unknown command '" + left[0] + "' (submit, status, kill, history; --help)");
        return USAGE;
      }
    }
    return new ElasticamCli(conf, out, err, ownJar()).run(ours);
  }

  /**
   * The distributable jar this class came from. Run directly, that is the class's code source;
   * under {@code yarn jar} (RunJar) the classes are loaded from the jar's unpacked copy in a temp
   * dir, which is no jar to ship, so the jar is found among the class loader's URLs: the one that
   * holds this class.
   */
  static Path ownJar() {
    try {
      Path p = Path.of(ElasticamCli.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      if (Files.isRegularFile(p)) {
        return p;
      }
      if (ElasticamCli.class.getClassLoader() instanceof java.net.URLClassLoader loader) {
        String self = ElasticamCli.class.getName().replace('.', '/') + ".class";
        for (java.net.URL u : loader.getURLs()) {
          Path candidate = Path.of(u.toURI());
          if (Files.isRegularFile(candidate) && candidate.toString().endsWith(".jar") && holds(candidate, self)) {
            return candidate;
          }
        }
      }
      return null;
    } catch (URISyntaxException | IllegalArgumentException | SecurityException e) {
      return null;
    }
  }

  private static boolean holds(Path jar, String entry) {
    try (java.util.jar.JarFile j = new java.util.jar.JarFile(jar.toFile())) {
      return j.getEntry(entry) != null;
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public int run(String[] args) {
    List<String> a = Arrays.asList(args);
    if (a.isEmpty()) {
      out.println(usage());
      return USAGE;
    }
    List<String> rest = a.subList(1, a.size());
    boolean verbose = false;
    try {
      switch (a.get(0)) {
        case "--help", "-h", "help" -> {
          out.println(usage());
          return OK;
        }
        case "submit" -> {
          SubmitArgs submit = SubmitArgs.parse(rest);
          verbose = submit.verbose();
          if (submit.help()) {
            out.println(usage());
            return OK;
          }
          return submit(submit);
        }
        case "status", "kill" -> {
          if (rest.contains("--help") || rest.contains("-h")) {
            out.println(usage());
            return OK;
          }
          ApplicationId id = appIdArg(a);
          requireClusterConf();
          return a.get(0).equals("status") ? status(id) : kill(id);
        }
        case "history" -> {
          return org.elasticam.report.HistoryMain.run(rest.toArray(new String[0]), out, err,
              new HadoopEventLogs(getConf()));
        }
        default -> throw new UsageException("unknown command '" + a.get(0) + "' (submit, status, kill, history; --help)");
      }
    } catch (UsageException e) {
      err.println("elasticam: " + e.getMessage());
      return USAGE;
    } catch (Exception e) {
      err.println("elasticam: " + describe(e));
      if (verbose) {
        e.printStackTrace(err);
      }
      return FAILED;
    }
  }

  private static void requireClusterConf() throws UsageException {
    if (Boolean.getBoolean(NO_CLUSTER_CONF)) {
      throw new UsageException("set HADOOP_CONF_DIR to the directory with your cluster's yarn-site.xml");
    }
  }

  /** The command a user types to run this client again, as they ran it: bin/elasticam, or yarn jar with our jar. */
  String commandPrefix() {
    String launcher = System.getProperty(COMMAND);
    if (launcher != null && !launcher.isBlank()) {
      return ShellWords.quote(launcher);
    }
    return "yarn jar " + (appJar == null ? "elasticam-<version>.jar" : ShellWords.quote(appJar.toString()));
  }

  private static String describe(Throwable e) {
    String m = e.getMessage();
    return (m == null || m.isBlank() ? e.getClass().getSimpleName() : m).lines().findFirst().orElse("");
  }

  private static ApplicationId appIdArg(List<String> a) throws UsageException {
    if (a.size() != 2 || a.get(1).startsWith("-")) {
      throw new UsageException(a.get(0) + " takes one application id");
    }
    try {
      return ApplicationId.fromString(a.get(1));
    } catch (IllegalArgumentException e) {
      throw new UsageException("'" + a.get(1) + "' is not an application id (application_<ts>_<n>)");
    }
  }

  /** The configuration with the submission's --conf settings, checked; warnings for unknown keys. */
  ElasticConf checkedConf(SubmitArgs args) throws UsageException {
    Configuration conf = getConf();
    args.conf().forEach(conf::set);
    HadoopConfigSource source = new HadoopConfigSource(conf);
    UnknownKeys.warnings(source.elasticamKeys()).forEach(w -> err.println("elasticam: warning: " + w));
    ElasticConf elastic = new ElasticConf(source);
    List<ConfigProblem> problems = elastic.validate();
    if (!problems.isEmpty()) {
      problems.subList(0, problems.size() - 1).forEach(p -> err.println("elasticam: invalid configuration: " + p.message()));
      throw new UsageException("invalid configuration: " + problems.get(problems.size() - 1).message());
    }
    return elastic;
  }

  private int submit(SubmitArgs args) throws Exception {
    ElasticConf elastic = checkedConf(args);
    if (elastic.getOptional(org.elasticam.conf.YarnKeys.PRINCIPAL).filter(p -> !p.isBlank()).isPresent()) {
      // The checks below read the cluster's file systems (a --jar on HDFS, the job's own listing of its
      // input, its output's absence): as the keytab's user, who may be the only one allowed to.
      org.apache.hadoop.security.UserGroupInformation user = SecureLogin.login(elastic);
      return SecureLogin.runAs(user, () -> checkAndSubmit(args, elastic, user));
    }
    return checkAndSubmit(args, elastic, null);
  }

  /** @param user the user logged in from a keytab already, or null to log in (or not) as usual */
  private int checkAndSubmit(SubmitArgs args, ElasticConf elastic, org.apache.hadoop.security.UserGroupInformation user)
      throws Exception {
    args = args.withJob(Submitter.localInputs(args.job(), getConf()));
    Submitter.checkLocalInputs(args.job(), getConf());
    if (elastic.get(org.elasticam.conf.StreamingKeys.ENABLED) && !args.job().isStreaming()) {
      throw new UsageException("elasticam.streaming.dynamicAllocation.enabled is for streaming jobs; use"
          + " elasticam.dynamicAllocation.enabled for a " + args.job().kind().name().toLowerCase(java.util.Locale.ROOT)
          + " job");
    }
    if (args.dryRun()) {
      out.println("The job and its settings are valid; nothing was submitted (--dry-run).");
      return OK;
    }
    requireClusterConf();
    if (appJar == null) {
      throw new UsageException("cannot find the ElasticAM jar to ship; run through `yarn jar elasticam-<version>.jar`"
          + " or bin/elasticam");
    }
    Configuration conf = getConf();
    SubmitArgs submitted = args;
    return SecureLogin.runAs(user != null ? user : SecureLogin.login(elastic), () -> submitAs(submitted, elastic, conf));
  }

  /** Submits and follows the application, as the user {@link SecureLogin#login} chose. */
  private int submitAs(SubmitArgs args, ElasticConf elastic, Configuration conf) throws Exception {
    args = args.withJob(Submitter.qualifyClusterPaths(args.job(), conf));
    failFastOnUnreachableRm(conf);
    org.apache.hadoop.security.Credentials tokens = SecureLogin.delegationTokens(conf, elastic);
    if (elastic.getOptional(org.elasticam.conf.YarnKeys.KEYTAB).filter(k -> !k.isBlank()).isEmpty()) {
      SecureLogin.tokensEndOfLife(tokens).ifPresent(end -> out.println("Without a keytab this application can run"
          + " until " + end + ", when its delegation tokens reach their maximum lifetime"
          + " (submit with --principal P --keytab K to renew them)"));
    }
    YarnClient yarn = YarnClient.createYarnClient();
    yarn.init(conf);
    yarn.start();
    try {
      Submitter submitter = new Submitter(conf, elastic, yarn, appJar, tokens);
      ApplicationId id = submitter.submit(args);
      out.println("Submitted " + id + " to " + conf.get(YarnConfiguration.RM_ADDRESS) + (args.detach()
          ? "; not waiting (--detach)" : Boolean.getBoolean(EMBEDDED) ? "; Ctrl-C kills it"
              : "; Ctrl-C kills it (--detach leaves it running)"));
      if (args.detach()) {
        out.printf("  status          %s status %s%n", commandPrefix(), id);
        out.printf("  kill            %s kill %s%n", commandPrefix(), id);
        return OK;
      }
      Thread killer = killOnInterrupt(yarn, id);
      ApplicationReport r = new AppMonitor(yarn, out, isTerminal(), org.elasticam.time.Clock.system()).waitForEnd(id);
      Runtime.getRuntime().removeShutdownHook(killer);
      removeStagingLeftBy(conf, elastic, id);
      report(r);
      summary(r, elastic);
      return r.getFinalApplicationStatus() == FinalApplicationStatus.SUCCEEDED ? OK : FAILED;
    } finally {
      yarn.stop();
    }
  }

  /** The application ended; what its AM did not remove (it never ran, or was killed) goes now. */
  private void removeStagingLeftBy(Configuration conf, ElasticConf elastic, ApplicationId id) {
    try {
      Submitter.removeStagingLeftBy(conf, elastic, id);
    } catch (IOException | RuntimeException e) {
      err.println("elasticam: could not remove the staging directory of " + id + ": " + describe(e));
    }
  }

  /** Whether stdout is a terminal; a launcher that pipes our output says so with elasticam.terminal. */
  private static boolean isTerminal() {
    String forced = System.getProperty("elasticam.terminal");
    return forced != null ? Boolean.parseBoolean(forced) : System.console() != null;
  }

  /** A client must not hang for many minutes retrying an RM that is not there. */
  private static void failFastOnUnreachableRm(Configuration conf) {
    String[] sources = conf.getPropertySources(YarnConfiguration.RESOURCEMANAGER_CONNECT_MAX_WAIT_MS);
    boolean onlyDefault = sources == null || Arrays.stream(sources).allMatch(s -> s.endsWith("-default.xml"));
    if (onlyDefault) {
      // yarn-default waits 15 minutes; a user at a terminal deserves an answer sooner.
      conf.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_MAX_WAIT_MS, 20_000);
      conf.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS, 1_000);
      // Each RM attempt would itself retry the connection 10 times, 1 s apart.
      String[] ipc = conf.getPropertySources("ipc.client.connect.max.retries");
      if (ipc == null || Arrays.stream(ipc).allMatch(s -> s.endsWith("-default.xml"))) {
        conf.setInt("ipc.client.connect.max.retries", 2);
      }
    }
  }

  private Thread killOnInterrupt(YarnClient yarn, ApplicationId id) {
    Thread t = new Thread(() -> {
      try {
        err.println("\nelasticam: interrupted; killing " + id);
        yarn.killApplication(id);
      } catch (Exception e) {
        err.println("elasticam: could not kill " + id + ": " + describe(e));
      }
    });
    Runtime.getRuntime().addShutdownHook(t);
    return t;
  }

  private void report(ApplicationReport r) {
    out.println(r.getApplicationId() + " " + r.getYarnApplicationState() + " with final status "
        + r.getFinalApplicationStatus());
    String diag = r.getDiagnostics();
    java.util.Optional<String> java = ExitClassifier.javaCheckMessage(diag);
    if (java.isPresent()) {
      // The AM never started: the node's Java is the whole story, not YARN's page of launch details.
      err.println("elasticam: " + java.get());
    } else if (diag != null && !diag.isBlank()) {
      out.println("diagnostics: " + diag.strip());
    }
    // bin/elasticam run lists the log files itself; a real cluster's are behind yarn logs.
    if (r.getFinalApplicationStatus() != FinalApplicationStatus.SUCCEEDED && !Boolean.getBoolean(EMBEDDED)) {
      out.println("logs: yarn logs -applicationId " + r.getApplicationId()
          + (getConf().getBoolean(YarnConfiguration.LOG_AGGREGATION_ENABLED,
              YarnConfiguration.DEFAULT_LOG_AGGREGATION_ENABLED) ? ""
                  : "  (log aggregation is off: the logs stay in each NodeManager's "
                      + YarnConfiguration.NM_LOG_DIRS + ")"));
    }
  }

  /** The run's figures from its event log; a missing log (the AM never started) is said so. */
  private void summary(ApplicationReport r, ElasticConf elastic) {
    double wall = Math.max(0, r.getFinishTime() - r.getStartTime()) / 1000.0;
    out.printf("  final status    %s%n", r.getFinalApplicationStatus());
    out.printf("  wall time       %.1f s%n", wall);
    try {
      org.apache.hadoop.fs.Path log = RunSummary.eventLogPath(getConf(), elastic, r.getApplicationId().toString());
      if (!log.getFileSystem(getConf()).exists(log)) {
        out.println("  event log       none (the ApplicationMaster did not start; see diagnostics)");
        return;
      }
      RunSummary s = RunSummary.read(getConf(), log);
      out.printf("  tasks           %d succeeded (%d attempts)%n", s.tasksSucceeded(), s.taskAttempts());
      out.printf("  executors       %d used%n", s.executorsUsed());
      out.printf("  executor-secs   %.1f%n", s.executorSeconds());
      String label = "  counters        ";
      for (var c : s.counters().entrySet()) {
        out.printf("%s%s %,d%n", label, c.getKey(), c.getValue());
        label = " ".repeat(label.length());
      }
      String where = eventLogLocation(log);
      out.printf("  event log       %s%n", where);
      out.printf("  report          %s history %s%n", commandPrefix(), ShellWords.quote(where));
    } catch (Exception e) {
      out.println("  event log       unreadable: " + describe(e));
    }
  }

  /** A local log as a plain path, which every tool takes; any other as its URI. */
  static String eventLogLocation(org.apache.hadoop.fs.Path log) {
    return "file".equals(log.toUri().getScheme()) ? log.toUri().getPath() : log.toString();
  }

  private int status(ApplicationId id) throws Exception {
    try (YarnClient yarn = started()) {
      ApplicationReport r = yarn.getApplicationReport(id);
      out.println(id + " " + r.getName() + ": " + r.getYarnApplicationState() + ", final status "
          + r.getFinalApplicationStatus() + ", progress " + Math.round(r.getProgress() * 100) + "%");
      out.println("tracking URL: " + r.getTrackingUrl());
      if (r.getDiagnostics() != null && !r.getDiagnostics().isBlank()) {
        out.println("diagnostics: " + r.getDiagnostics().strip());
      }
      return OK;
    }
  }

  /**
   * Kills the application and, once YARN says it is killed, removes what it left in the staging
   * directory (a killed AM does not get to): under this user's default one, or the
   * {@code -D elasticam.yarn.stagingDir} given.
   */
  private int kill(ApplicationId id) throws Exception {
    try (YarnClient yarn = started()) {
      yarn.killApplication(id);
      out.println("killed " + id);
      removeStagingLeftBy(getConf(), new ElasticConf(new HadoopConfigSource(getConf())), id);
      return OK;
    }
  }

  private YarnClient started() {
    Configuration conf = getConf();
    failFastOnUnreachableRm(conf);
    YarnClient yarn = YarnClient.createYarnClient();
    yarn.init(conf);
    yarn.start();
    return yarn;
  }
}
