package org.elasticam.am.client;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.client.api.YarnClientApplication;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.elasticam.am.AmFiles;
import org.elasticam.am.StagingResources;
import org.elasticam.am.job.JobArgsFile;
import org.elasticam.am.job.JobSpec;
import org.elasticam.allocator.exit.ExitStatus;
import org.elasticam.am.security.AppAcls;
import org.elasticam.conf.ElasticConf;
import org.elasticam.conf.EnvironmentKeys;
import org.elasticam.conf.ExecutorKeys;
import org.elasticam.conf.YarnKeys;
import org.elasticam.am.StartupArchives;
import org.elasticam.conf.StartupArchiveLayout;
import org.elasticam.launcher.yarn.ContainerCommand;
import org.elasticam.launcher.yarn.StartupArchive;
import org.elasticam.launcher.yarn.ExecutorLaunchSpec;
import org.elasticam.launcher.yarn.JvmSettings;
import org.elasticam.rpc.AppSecretAuth;
import org.elasticam.workload.Trace;
import org.elasticam.workload.TraceFormatException;

/**
 * Submits one application: checks the job's files, stages the jars under the user's home on
 * fs.defaultFS, puts a fresh application secret in the credentials, builds the AM's launch context
 * and submits it to the configured queue.
 */
public final class Submitter {

  /** The key that points the AM at another Java home than the node's. */
  public static final String AM_JAVA_HOME_KEY = EnvironmentKeys.AM_ENV_PREFIX + "JAVA_HOME";

  private static final int SECRET_BYTES = 32;
  /** Under the staging directory: our jar, one file per build (AppJarCache). */
  private static final String JAR_CACHE_DIR = "jars";

  private final Configuration conf;
  private final ElasticConf elastic;
  private final YarnClient yarn;
  private final Path appJar;
  /** {@link #jarDigest}, read once: it names the jar cache's copy and the nodes' start-up archives. */
  private String appJarDigest;
  private final Credentials tokens;

  /** @param tokens delegation tokens the application takes with it (empty on a cluster without Kerberos) */
  public Submitter(Configuration conf, ElasticConf elastic, YarnClient yarn, Path appJar, Credentials tokens) {
    this.conf = conf;
    this.elastic = elastic;
    this.yarn = yarn;
    this.appJar = appJar;
    this.tokens = tokens;
  }

  /**
   * A wordcount's input must exist and its output must not, on the file systems they name (as
   * MapReduce checks); both are made absolute here, where a relative path means what the user meant.
   */
  public static JobSpec qualifyClusterPaths(JobSpec job, Configuration conf) throws UsageException {
    if (job.kind() != JobSpec.Kind.WORDCOUNT) {
      return job;
    }
    org.apache.hadoop.fs.Path in = new org.apache.hadoop.fs.Path(job.required("input"));
    org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path(job.required("output"));
    try {
      FileSystem inFs = in.getFileSystem(conf);
      FileSystem outFs = out.getFileSystem(conf);
      in = inFs.makeQualified(in);
      out = outFs.makeQualified(out);
      if (!inFs.exists(in)) {
        throw new UsageException("the input " + in + " does not exist");
      }
      if (outFs.exists(out)) {
        throw new UsageException("the output " + out + " exists already: remove it or name another");
      }
    } catch (IOException e) {
      throw new UsageException("cannot check the job's files: " + e.getMessage());
    }
    return job.withOption("input", in.toString()).withOption("output", out.toString());
  }

  /**
   * The job with its client-side files ({@code --jar}, a trace's {@code --file}) as local paths: a
   * {@code file:} URI becomes its path; any other file system URI ({@code hdfs://…}) is copied to a
   * local temporary file first, so that it is checked and staged like a local one.
   */
  public static JobSpec localInputs(JobSpec job, Configuration conf) throws UsageException {
    String option = switch (job.kind()) {
      case USER -> "jar";
      case TRACE -> "file";
      default -> null;
    };
    if (option == null) {
      return job;
    }
    String given = job.required(option);
    java.util.Optional<Path> local = org.elasticam.report.LocalFiles.of(given);
    if (local.isPresent()) {
      return job.withOption(option, local.get().toString());
    }
    try {
      org.apache.hadoop.fs.Path remote = new org.apache.hadoop.fs.Path(given);
      FileSystem fs = remote.getFileSystem(conf);
      if (!fs.exists(remote)) {
        throw new UsageException(given + " (--" + option + ") does not exist");
      }
      String name = remote.getName();
      Path copy = Files.createTempFile("elasticam-", "-" + name);
      copy.toFile().deleteOnExit();
      fs.copyToLocalFile(false, remote, new org.apache.hadoop.fs.Path(copy.toUri()), true);
      return job.withOption(option, copy.toString());
    } catch (IOException | IllegalArgumentException e) {
      throw new UsageException("cannot read " + given + " (--" + option + "): " + e.getMessage());
    }
  }

  /** Checks what can be checked before anything is sent: files exist, the trace parses, the class is there. */
  public static void checkLocalInputs(JobSpec job, Configuration conf) throws UsageException {
    switch (job.kind()) {
      case TRACE -> {
        Path f = Path.of(job.required("file"));
        try {
          Trace.read(f);
        } catch (TraceFormatException e) {
          throw new UsageException("bad trace file " + e.getMessage());
        } catch (IOException e) {
          throw new UsageException("cannot read trace file " + f + ": " + e.getMessage());
        }
      }
      case USER -> UserJobCheck.check(job, Path.of(job.required("jar")), conf);
      default -> { }
    }
    if (job.isStreaming()) {
      try {
        org.elasticam.workload.stream.RateProfile.parse(job.required("rate"), Path.of("."));
      } catch (IllegalArgumentException e) {
        throw new UsageException("bad --rate: " + e.getMessage());
      }
    }
  }

  /** The local file of a {@code --rate file:F} profile, which goes to the staging dir with the job. */
  static java.util.Optional<Path> rateFile(JobSpec job) {
    return job.isStreaming() && job.required("rate").startsWith(RATE_FILE_PREFIX)
        ? java.util.Optional.of(Path.of(job.required("rate").substring(RATE_FILE_PREFIX.length())))
        : java.util.Optional.empty();
  }

  private static final String RATE_FILE_PREFIX = "file:";

  /** @return the new application's id */
  public ApplicationId submit(SubmitArgs args) throws Exception {
    YarnClientApplication app = yarn.createApplication();
    ApplicationId appId = app.getNewApplicationResponse().getApplicationId();
    Resource max = app.getNewApplicationResponse().getMaximumResourceCapability();
    Resource amResource = Resource.newInstance(elastic.amContainerMebibytes(), elastic.get(YarnKeys.AM_CORES));
    checkFits("the ApplicationMaster", amResource, max, "elasticam.yarn.am.memory");
    checkFits("an executor", Resource.newInstance(elastic.executorContainerMebibytes(), elastic.get(ExecutorKeys.CORES)),
        max, "elasticam.executor.memory");
    org.apache.hadoop.fs.Path staging = stagingDir(appId);
    FileSystem fs = staging.getFileSystem(conf);
    fs.mkdirs(staging, new FsPermission((short) 0700));
    Map<String, LocalResource> resources = stage(fs, staging, args);
    ApplicationSubmissionContext ctx = app.getApplicationSubmissionContext();
    ctx.setApplicationName(args.name());
    ctx.setApplicationType("ELASTICAM");
    ctx.setQueue(elastic.get(YarnKeys.QUEUE));
    ctx.setPriority(Priority.newInstance(elastic.get(YarnKeys.PRIORITY)));
    ctx.setResource(amResource);
    elastic.getOptional(YarnKeys.MAX_APP_ATTEMPTS).ifPresent(ctx::setMaxAppAttempts);
    // A new attempt takes the executors over instead of starting them all again.
    ctx.setKeepContainersAcrossApplicationAttempts(elastic.getOptional(YarnKeys.MAX_APP_ATTEMPTS).orElse(1) > 1);
    ctx.setAMContainerSpec(ContainerLaunchContext.newInstance(resources,
        amEnvironment(staging, resources.get(AmFiles.APP_JAR)),
        List.of(amCommand(appId)), null, credentials(tokens), AppAcls.of(elastic)));
    try {
      yarn.submitApplication(ctx);
    } catch (Exception | Error e) {
      try {
        removeStagingLeftBy(conf, elastic, appId);
      } catch (IOException | RuntimeException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
    return appId;
  }

  /**
   * Removes the application's staging directory once YARN says it ended, when its AM did not: one
   * that never started (no Java, too old a Java, its container refused) or was killed leaves it.
   * Kept with {@code elasticam.yarn.preserveStagingFiles}.
   *
   * @return whether there was a directory left to remove
   */
  static boolean removeStagingLeftBy(Configuration conf, ElasticConf elastic, ApplicationId appId)
      throws IOException {
    if (elastic.get(YarnKeys.PRESERVE_STAGING_FILES)) {
      return false;
    }
    org.apache.hadoop.fs.Path staging = stagingDir(conf, elastic, appId);
    return staging.getFileSystem(conf).delete(staging, true);
  }

  public org.apache.hadoop.fs.Path stagingDir(ApplicationId appId) throws IOException {
    return stagingDir(conf, elastic, appId);
  }

  private static org.apache.hadoop.fs.Path stagingDir(Configuration conf, ElasticConf elastic, ApplicationId appId)
      throws IOException {
    return new org.apache.hadoop.fs.Path(stagingBase(conf, elastic), appId.toString());
  }

  /** Our jar's digest, computed on first use (hashing 29 MB). */
  private String jarDigest() throws IOException {
    if (appJarDigest == null) {
      appJarDigest = org.elasticam.am.JarDigest.of(appJar);
    }
    return appJarDigest;
  }

  private static org.apache.hadoop.fs.Path stagingBase(Configuration conf, ElasticConf elastic) throws IOException {
    java.util.Optional<String> set = elastic.getOptional(YarnKeys.STAGING_DIR);
    return set.isPresent() ? new org.apache.hadoop.fs.Path(set.get())
        : new org.apache.hadoop.fs.Path(FileSystem.get(conf).getHomeDirectory(), ".elasticam/staging");
  }

  private Map<String, LocalResource> stage(FileSystem fs, org.apache.hadoop.fs.Path dir, SubmitArgs args)
      throws IOException {
    Map<String, LocalResource> m = new HashMap<>();
    java.util.Optional<LocalResource> cached = elastic.get(YarnKeys.JAR_CACHE_ENABLED)
        ? AppJarCache.stage(fs, new org.apache.hadoop.fs.Path(stagingBase(conf, elastic), JAR_CACHE_DIR), appJar, jarDigest(),
            dir.getName())
        : java.util.Optional.empty();
    m.put(AmFiles.APP_JAR, cached.isPresent() ? cached.get() : upload(fs, appJar, dir, AmFiles.APP_JAR));
    JobSpec job = args.job();
    if (job.kind() == JobSpec.Kind.USER) {
      m.put(AmFiles.USER_JAR, upload(fs, Path.of(job.required("jar")), dir, AmFiles.USER_JAR));
    } else if (job.kind() == JobSpec.Kind.TRACE) {
      m.put(AmFiles.TRACE_FILE, upload(fs, Path.of(job.required("file")), dir, AmFiles.TRACE_FILE));
    }
    // The AM renews the application's tokens from it; it goes in the 0700 staging dir, to the AM only.
    java.util.Optional<String> keytab = elastic.getOptional(YarnKeys.KEYTAB).filter(k -> !k.isBlank());
    if (keytab.isPresent() && UserGroupInformation.isSecurityEnabled()) {
      m.put(AmFiles.KEYTAB, upload(fs, Path.of(keytab.get()), dir, AmFiles.KEYTAB));
    }
    java.util.Optional<Path> rate = rateFile(job);
    if (rate.isPresent()) {
      m.put(AmFiles.RATE_FILE, upload(fs, rate.get(), dir, AmFiles.RATE_FILE));
    }
    org.apache.hadoop.fs.Path jobFile = new org.apache.hadoop.fs.Path(dir, AmFiles.JOB_FILE);
    try (OutputStream out = fs.create(jobFile, true)) {
      JobArgsFile.write(out, inContainer(job).toArgs());
    }
    m.put(AmFiles.JOB_FILE, StagingResources.resource(fs, jobFile));
    org.apache.hadoop.fs.Path confFile = new org.apache.hadoop.fs.Path(dir, AmFiles.CONF_FILE);
    try (OutputStream out = fs.create(confFile, true)) {
      Properties p = new Properties();
      conf.getPropsWithPrefix(ElasticConf.PREFIX).forEach((k, v) -> p.setProperty(ElasticConf.PREFIX + k, v));
      p.store(out, "elasticam.* settings of this submission");
    }
    m.put(AmFiles.CONF_FILE, StagingResources.resource(fs, confFile));
    return m;
  }

  private static LocalResource upload(FileSystem fs, Path local, org.apache.hadoop.fs.Path dir, String name)
      throws IOException {
    org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(dir, name);
    fs.copyFromLocalFile(false, true, new org.apache.hadoop.fs.Path(local.toAbsolutePath().toUri()), target);
    return StagingResources.resource(fs, target);
  }

  private Map<String, String> amEnvironment(org.apache.hadoop.fs.Path staging, LocalResource appJar) throws IOException {
    Map<String, String> env = new HashMap<>();
    List<String> cp = new ArrayList<>();
    cp.add(Environment.PWD.$$());
    cp.add(Environment.PWD.$$() + "/*");
    cp.addAll(List.of(conf.getStrings(YarnConfiguration.YARN_APPLICATION_CLASSPATH,
        YarnConfiguration.DEFAULT_YARN_CROSS_PLATFORM_APPLICATION_CLASSPATH)));
    // No JAVA_HOME of the client's, whose JDK need not exist on the node: the node's, or the user's.
    conf.getPropsWithPrefix(EnvironmentKeys.AM_ENV_PREFIX).forEach((name, value) -> {
      if (!name.isEmpty() && !name.equals(Environment.CLASSPATH.name())) {
        env.put(name, ContainerCommand.literalEnvValue(value));
      }
    });
    amJvm().addToEnvironment(env, cp, ApplicationConstants.CLASS_PATH_SEPARATOR);
    // The user job's relative paths mean what they meant here, in the AM as in the client.
    FileSystem defaultFs = FileSystem.get(conf);
    env.put(org.elasticam.io.JobPaths.WORKING_DIR_ENV,
        ContainerCommand.literalEnvValue(defaultFs.makeQualified(defaultFs.getWorkingDirectory()).toString()));
    env.put(AmFiles.ENV_STAGING_DIR,
        ContainerCommand.literalEnvValue(staging.getFileSystem(conf).makeQualified(staging).toString()));
    env.put(AmFiles.ENV_APP_JAR_DIGEST, jarDigest());
    try {
      env.put(AmFiles.ENV_APP_JAR, ContainerCommand.literalEnvValue(appJar.getResource().toPath().toString()));
    } catch (java.net.URISyntaxException e) {
      throw new IOException("the staged jar's address " + appJar.getResource() + " is not a URI", e);
    }
    return env;
  }

  /** The user's JVM options, classpath and library path for the AM. */
  private JvmSettings amJvm() {
    return JvmSettings.of(elastic.getOptional(YarnKeys.AM_EXTRA_JAVA_OPTIONS).orElse(null),
        elastic.getOptional(YarnKeys.AM_EXTRA_CLASS_PATH).orElse(null),
        elastic.getOptional(YarnKeys.AM_EXTRA_LIBRARY_PATH).orElse(null));
  }

  /** The job as the AM sees it: its files under their staged links. */
  private static JobSpec inContainer(JobSpec job) {
    JobSpec in = switch (job.kind()) {
      case USER -> job.withOption("jar", AmFiles.USER_JAR);
      case TRACE -> job.withOption("file", AmFiles.TRACE_FILE);
      default -> job;
    };
    return rateFile(job).isPresent() ? in.withOption("rate", RATE_FILE_PREFIX + AmFiles.RATE_FILE) : in;
  }

  /** The job's arguments travel in {@link AmFiles#JOB_FILE}: nothing the user typed is on this line. */
  private String amCommand(ApplicationId appId) throws IOException {
    ContainerCommand c = new ContainerCommand()
        .requireJava(ExecutorLaunchSpec.MIN_JAVA, ExitStatus.JAVA_TOO_OLD, "the AM container", AM_JAVA_HOME_KEY,
            ApplicationConstants.LOG_DIR_EXPANSION_VAR + "/AppMaster.stderr");
    java.util.Optional<StartupArchive> archive = StartupArchives.forAm(elastic, appJar, jarDigest());
    archive.ifPresent(a -> c.startupArchive(a, StartupArchiveLayout.Role.AM));
    c.shell("exec")
        .expanded(Environment.JAVA_HOME.$$() + "/bin/java")
        .arg("-Xmx" + elastic.get(YarnKeys.AM_MEMORY).mebibytes() + "m");
    if (archive.isPresent()) {
      c.startupArchiveOption();
    }
    // The AM's start-up code, like an executor's, is hot once: 1.7 CPU-seconds of a short job's AM
    // were its compiles (BENCHMARKS.md, "The AM's compilers three times as hot"). The user's options
    // come after and override them.
    ExecutorLaunchSpec.START_COMPILER_OPTIONS.forEach(c::arg);
    amJvm().addOptions(c, Map.of("APP_ID", appId.toString()));
    return c.expanded("-Djava.io.tmpdir=" + Environment.PWD.$$() + "/tmp")
        .containerLogging("am.log")
        .arg(AmFiles.AM_MAIN)
        .redirect("1>", ApplicationConstants.LOG_DIR_EXPANSION_VAR + "/AppMaster.stdout")
        .redirect("2>", ApplicationConstants.LOG_DIR_EXPANSION_VAR + "/AppMaster.stderr")
        .build();
  }

  /**
   * The submitter's tokens, the delegation tokens obtained for the job, and a fresh application
   * secret; the AM passes them on to executors (never the AMRMToken). The keytab is not among them.
   */
  private static ByteBuffer credentials(Credentials obtained) throws IOException {
    Credentials creds = new Credentials(UserGroupInformation.getCurrentUser().getCredentials());
    creds.addAll(obtained);
    byte[] secret = new byte[SECRET_BYTES];
    new SecureRandom().nextBytes(secret);
    creds.addSecretKey(new Text(AppSecretAuth.CREDENTIALS_KEY), secret);
    DataOutputBuffer buf = new DataOutputBuffer();
    creds.writeTokenStorageToStream(buf);
    return ByteBuffer.wrap(buf.getData(), 0, buf.getLength());
  }

  private static void checkFits(String what, Resource wanted, Resource max, String key) throws UsageException {
    if (wanted.getMemorySize() > max.getMemorySize() || wanted.getVirtualCores() > max.getVirtualCores()) {
      throw new UsageException(what + " needs a container of " + wanted.getMemorySize() + " MiB and "
          + wanted.getVirtualCores() + " vcores, but the cluster's largest is " + max.getMemorySize() + " MiB and "
          + max.getVirtualCores() + " vcores; lower " + key);
    }
  }
}
