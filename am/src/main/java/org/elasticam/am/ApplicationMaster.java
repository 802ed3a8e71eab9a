package org.elasticam.am;

import static org.elasticam.report.events.EventFields.ALLOCATE_MS;
import static org.elasticam.report.events.EventFields.APP_ID;
import static org.elasticam.report.events.EventFields.ATTEMPT;
import static org.elasticam.report.events.EventFields.CONF;
import static org.elasticam.report.events.EventFields.HOST;
import static org.elasticam.report.events.EventFields.JAVA_HOME;
import static org.elasticam.report.events.EventFields.JAVA_VERSION;
import static org.elasticam.report.events.EventFields.JOB;
import static org.elasticam.report.events.EventFields.PID;
import static org.elasticam.report.events.EventFields.RPC_PORT;
import static org.elasticam.report.events.EventFields.START;
import static org.elasticam.report.events.EventFields.TOKENS;
import static org.elasticam.report.events.EventFields.TRACKING_URL;

import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterResponse;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.elasticam.allocator.AllocatorSettings;
import org.elasticam.allocator.ExecutorAllocator;
import org.elasticam.am.conf.HadoopConfigSource;
import org.elasticam.am.driver.Driver;
import org.elasticam.am.security.AppAcls;
import org.elasticam.am.security.TokenRenewer;
import org.elasticam.am.driver.ControlPlaneWarmup;
import org.elasticam.am.driver.DriverService;
import org.elasticam.engine.job.DriverSettings;
import org.elasticam.engine.job.EnginePorts;
import org.elasticam.engine.job.JobEngine;
import org.elasticam.engine.job.JobPolicies;
import org.elasticam.engine.job.Outcome;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.am.events.EventLog;
import org.elasticam.am.events.ExecutorSeconds;
import org.elasticam.am.metrics.AmMetrics;
import org.elasticam.am.job.BuiltInJobs;
import org.elasticam.engine.job.JobPlan;
import org.elasticam.am.job.JobArgsFile;
import org.elasticam.am.job.JobOutputs;
import org.elasticam.am.job.JobSpec;
import org.elasticam.engine.job.StreamingPlan;
import org.elasticam.am.loop.AmLoop;
import org.elasticam.am.status.LivePageFront;
import org.elasticam.am.status.StatusServer;
import org.elasticam.am.recovery.EndpointFile;
import org.elasticam.am.yarn.RackLookup;
import org.elasticam.rpc.journal.AmJournal;
import org.elasticam.am.yarn.YarnAllocator;
import org.elasticam.conf.ShuffleKeys;
import org.elasticam.shuffle.protocol.RequestSigner;
import org.elasticam.shuffle.protocol.SecretEnvelope;
import org.elasticam.conf.ConfigProblem;
import org.elasticam.conf.ElasticConf;
import org.elasticam.conf.StartupArchiveLayout;
import org.elasticam.conf.EnvironmentKeys;
import org.elasticam.conf.ExecutorKeys;
import org.elasticam.conf.UnknownKeys;
import org.elasticam.conf.YarnKeys;
import org.elasticam.launcher.ExecutorLauncher;
import org.elasticam.launcher.yarn.ExecutorLaunchSpec;
import org.elasticam.launcher.yarn.JvmSettings;
import org.elasticam.rpc.AppSecretAuth;
import org.elasticam.rpc.RpcLimits;
import org.elasticam.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.elasticam.report.events.Event;

/**
 * The ApplicationMaster process: registers with the ResourceManager, runs the job's driver and
 * the allocator on one event loop, heartbeats on its own thread, serves the control plane and the
 * tracking URL, and at the end stops the executors, unregisters with a final status and a
 * diagnostic, and removes the staging directory. Exit codes: {@link AmExitCodes}.
 */
public final class ApplicationMaster {

  private static final Logger LOG = LoggerFactory.getLogger(ApplicationMaster.class);

  private final Configuration conf;
  private final ElasticConf elastic;
  private final JobSpec job;
  private final AmEnvironment env;
  private final AmClients clients;
  private final Clock clock;
  private final AmTokens tokens;
  private final AmRestart restarts;
  private final CompletableFuture<Outcome> done = new CompletableFuture<>();
  /** How this JVM stood with its node's start-up archive for AMs; made when absent. */
  private org.elasticam.startup.NodeStartupArchive startupArchive;
  /** Set once this attempt unregistered: the application has ended, and no other attempt waits. */
  private boolean unregistered;
  /** How long an AM that has unregistered still waits for the start-up archive it is making. */
  static final java.time.Duration ARCHIVE_GRACE = java.time.Duration.ofSeconds(30);
  /** Whether this application's executors start from (and make) an archive, which the AM's waits for. */
  private volatile boolean executorsHaveArchive;

  /**
   * @param env what the container's environment says
   * @param clients YARN's clients ({@link AmClients#yarn}) or a test's
   */
  ApplicationMaster(Configuration conf, ElasticConf elastic, JobSpec job, AmEnvironment env, AmClients clients,
      Clock clock) {
    this.conf = conf;
    this.elastic = elastic;
    this.job = job;
    this.env = env;
    this.clients = clients;
    this.clock = clock;
    this.tokens = new AmTokens(conf, elastic, clock);
    this.restarts = new AmRestart(conf, elastic, env);
  }

  public static void main(String[] args) {
    int code;
    try {
      code = launch(args);
    } catch (Throwable t) {
      LOG.error("The ApplicationMaster failed", t);
      code = AmExitCodes.INTERNAL_ERROR;
    }
    System.exit(code);
  }

  private static int launch(String[] args) throws Exception {
    Configuration conf = new YarnConfiguration();
    loadSubmittedConf(conf);
    HadoopConfigSource source = new HadoopConfigSource(conf);
    UnknownKeys.warnings(source.elasticamKeys()).forEach(w -> LOG.warn(w));
    ElasticConf elastic = new ElasticConf(source);
    List<ConfigProblem> problems = elastic.validate();
    List<String> jobArgs = args.length > 0 ? List.of(args) : JobArgsFile.read(Path.of(AmFiles.JOB_FILE));
    JobSpec spec;
    try {
      spec = JobSpec.parse(jobArgs);
    } catch (IllegalArgumentException e) {
      problems = List.of(new ConfigProblem("job", String.join(" ", jobArgs), e.getMessage()));
      spec = null;
    }
    if (!problems.isEmpty()) {
      LOG.error("Invalid configuration or job: {}", problems);
      return AmExitCodes.BAD_CONFIGURATION;
    }
    return new ApplicationMaster(conf, elastic, spec, AmEnvironment.of(System::getenv), AmClients.yarn(conf),
        Clock.system()).run();
  }

  /** The client ships the submission's elasticam.* settings as a properties file. */
  private static void loadSubmittedConf(Configuration conf) throws IOException {
    Path file = Path.of(AmFiles.CONF_FILE);
    if (!Files.exists(file)) {
      return;
    }
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      p.load(in);
    }
    p.stringPropertyNames().forEach(k -> conf.set(k, p.getProperty(k)));
  }

  int run() throws Exception {
    byte[] secret = UserGroupInformation.getCurrentUser().getCredentials()
        .getSecretKey(new org.apache.hadoop.io.Text(AppSecretAuth.CREDENTIALS_KEY));
    if (secret == null) {
      throw new IOException("the application's credentials hold no secret; was it submitted by our client?");
    }
    int attempt = env.attempt().getAttemptId();
    int code;
    // Before anything reads the file system: a later attempt may start after the first tokens expired.
    try (TokenRenewer renewer = tokens.start()) {
      ExecutorSeconds executorSeconds = new ExecutorSeconds();
      AmLoop loop = new AmLoop(t -> done.complete(Outcome.failed("internal error in the AM: " + t)));
      Optional<AmJournal> previous = restarts.previousJournal();
      EventLog events = openEventLog(env.appId(), attempt > 1);
      AmMetrics metrics = new AmMetrics().register();
      AmEvents amEvents = new AmEvents(events, executorSeconds, metrics, clock);
      try (loop; events; AmClients.Nodes nodes = clients.nodes(tokens.resourceManagerUser());
          AutoCloseable m = metrics::unregister) {
        events.write(Event.APP_START, APP_ID, env.appId(), ATTEMPT, attempt, CONF,
            elastic.resolvedForDisplay(), JOB, job.toArgs(), JAVA_VERSION, System.getProperty("java.version"),
            JAVA_HOME, System.getenv("JAVA_HOME"));
        if (tokens.startTokens() != null) {
          // The set obtained at start, before the log existed: every attempt's first own tokens.
          events.write(Event.TOKENS_RENEWED, TOKENS, tokens.startTokens().numberOfTokens());
        }
        code = runWith(new AmRun(env, secret, clock, loop, events, amEvents, executorSeconds, nodes), previous);
      }
    }
    if (unregistered) {
      // The application is over for YARN and the user (FINISHED from the unregistration on); this
      // container still holds the dump that spares every later AM of this build on this node its
      // start-up classes. Not after a failed attempt: the next one starts only once this JVM exits.
      startupArchive.awaitMaking("The AM", ARCHIVE_GRACE);
    }
    return code;
  }

  private int runWith(AmRun run, Optional<AmJournal> previous) throws Exception {
    // Naming the start-up archive takes our jar's digest: the client's, or, from an older client, a hash
    // of our 29 MB jar (about 70 ms of CPU) done while the AM starts its control plane and registers,
    // not between registering and its first container request.
    java.util.concurrent.CompletableFuture<Optional<org.elasticam.launcher.yarn.StartupArchive>> archive =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> StartupArchives.forApplication(elastic, Path.of(AmFiles.APP_JAR),
                java.util.Optional.ofNullable(env.appJarDigest())));
    AmLoop loop = run.loop();
    EventLog events = run.events();
    String amHost = env.amHost();
    startupArchive = org.elasticam.startup.NodeStartupArchive.ofThisJvm(StartupArchiveLayout.Role.AM);
    startupArchive.logStart("The AM");
    JobPlan plan;
    try {
      plan = BuiltInJobs.plan(job, run.nodes().liveHosts(), conf);
    } catch (Exception e) {
      plan = null;
      done.complete(Outcome.failed("The job could not be planned: " + e.getMessage()));
    }
    AMRMClient<ContainerRequest> amClient = clients.resourceManager();
    amClient.start();
    DriverHolder holder = new DriverHolder();
    DriverService service = new DriverService(loop, holder);
    Server grpc = startControlPlane(service, loop, run.secret());
    warmControlPlane(amHost, grpc.getPort(), run.secret());
    StatusServer status = new StatusServer(LivePageFront.inContainer(conf, amHost, env.attempt().getApplicationId(),
        env.user(), AppAcls.of(elastic), env.webProxyBase()), new StatusServer.Source() {
      @Override
      public Map<String, Object> snapshot() throws Exception {
        return loop.call(holder::snapshot);
      }

      @Override
      public List<String> eventLines() throws Exception {
        return loop.call(events::retainedLines);
      }
    });
    String trackingUrl = status.url().toString();
    RegisterApplicationMasterResponse reg = amClient.registerApplicationMaster(amHost, grpc.getPort(), trackingUrl);
    Map<String, Object> registeredStart = startAtRegistration(startupArchive);
    LOG.info("Registered with the ResourceManager; control plane on {}:{}, status at {}", amHost, grpc.getPort(),
        trackingUrl);
    loop.call(() -> {
      events.write(Event.AM_REGISTERED, HOST, amHost, RPC_PORT, grpc.getPort(), TRACKING_URL, trackingUrl,
          PID, ProcessHandle.current().pid(), START, registeredStart);
      return null;
    });
    Resource resource = Resource.newInstance(elastic.executorContainerMebibytes(), elastic.get(ExecutorKeys.CORES));
    checkFits(resource, reg.getMaximumResourceCapability());
    String[] dial = executorsDial(amHost, grpc.getPort());
    Optional<org.elasticam.launcher.yarn.StartupArchive> executorArchive = archive.join();
    executorsHaveArchive = executorArchive.isPresent();
    ExecutorLaunchSpec spec = launchSpec(env.appId(), dial[0], Integer.parseInt(dial[1]), run.secret(),
        executorArchive);
    try (ExecutorLauncher launcher = clients.launcher(spec, elastic.get(YarnKeys.LAUNCHER_THREADS))) {
      tokens.passOnTo(launcher, loop, holder, events);
      YarnAllocator allocator = new YarnAllocator(amClient, launcher, loop,
          new ExecutorAllocator(AllocatorSettings.from(elastic)), resource,
          elastic.getOptional(YarnKeys.NODE_LABEL_EXPRESSION).filter(s -> !s.isBlank()), RackLookup.hadoop(conf),
          run.nodes(), run.amEvents(), clock);
      AmRestart.Restart restart = loop.call(() -> restarts.resume(reg, previous, allocator, run.executorSeconds(),
          events, loop));
      try (AutoCloseable j = restart.journal() == null ? () -> { } : restart.journal();
          ServiceShuffleCleaner cleaner = new ServiceShuffleCleaner(env.appId(), RequestSigner.deriveShuffleSecret(run.secret()),
              org.elasticam.shuffle.client.ClientSettings.from(elastic), clock)) {
        JobOutputs outputs = JobOutputs.of(plan, conf);
        String notSetUp = plan == null ? null : setUp(outputs);
        Outcome outcome = plan == null ? done.get()
            : notSetUp != null ? Outcome.failed(notSetUp)
            : drive(run, holder, allocator, amClient, plan, restart, dial[0], Integer.parseInt(dial[1]), cleaner);
        int code = new AmShutdown(conf, elastic, env, j).finish(outcome, run, holder, allocator, amClient, trackingUrl,
            service::openSessions, o -> notSetUp != null ? o : endOutputs(outputs, o));
        unregistered = true;
        return code;
      }
    } finally {
      grpc.shutdownNow();
      status.close();
      amClient.stop();
    }
  }

  /**
   * The AM's own start, in the shape of an executor's {@code start} in executor_registered: when its
   * JVM started, how it stood with its start-up archive, and the JVM's uptime, CPU time and classes
   * loaded at its registration.
   */
  private static Map<String, Object> startAtRegistration(org.elasticam.startup.NodeStartupArchive archive) {
    org.elasticam.startup.StartMark now = org.elasticam.startup.StartMark.now();
    Map<String, Object> registered = new java.util.LinkedHashMap<>();
    registered.put("uptime_ms", now.uptimeMs());
    registered.put("cpu_ms", now.cpuMs());
    registered.put("classes", now.classesLoaded());
    Map<String, Object> start = new java.util.LinkedHashMap<>();
    start.put("jvm_start_ts", java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime());
    start.put("archive", archive.state().eventName);
    start.put("registered", registered);
    return start;
  }

  /** Prepares the job's output directories; the reason it cannot, for the user, or null. */
  private String setUp(JobOutputs outputs) {
    try {
      outputs.setup(env.attempt().getAttemptId() == 1);
      return null;
    } catch (IOException e) {
      LOG.info("The job cannot start: {}", e.getMessage());
      return "The job cannot start: " + e.getMessage();
    }
  }

  /** Commits the output of a job that succeeded and removes that of one that did not; the final outcome. */
  private static Outcome endOutputs(JobOutputs outputs, Outcome outcome) {
    if (outputs.isEmpty()) {
      return outcome;
    }
    if (outcome.status() == Outcome.Status.SUCCEEDED) {
      try {
        outputs.commit();
        return outcome;
      } catch (IOException | RuntimeException e) {
        String why = "the job's tasks succeeded but its output could not be committed: " + e.getMessage();
        outputs.abort(why);
        return Outcome.failed(why);
      }
    }
    outputs.abort("the job " + outcome.status().name().toLowerCase(java.util.Locale.ROOT));
    return outcome;
  }

  private Outcome drive(AmRun run, DriverHolder holder, YarnAllocator allocator, AMRMClient<ContainerRequest> amClient,
      JobPlan plan, AmRestart.Restart restart, String amHost, int rpcPort, org.elasticam.engine.job.ShuffleCleaner cleaner)
      throws Exception {
    AmLoop loop = run.loop();
    EventLog events = run.events();
    AmEvents amEvents = run.amEvents();
    String appId = env.appId();
    RackLookup racks = RackLookup.hadoop(conf);
    TaskScheduler scheduler = new TaskScheduler(elastic.get(ExecutorKeys.TASK_MAX_FAILURES),
        elastic.get(ExecutorKeys.LOCALITY_WAIT), racks::rackOf);
    Heartbeater[] hb = new Heartbeater[1];
    // The AM's start is over once its first executor registered: the classes it loaded by then are
    // what the next AM here would load from its archive.
    YarnAllocatorPort port = new YarnAllocatorPort(allocator, () -> hb[0].wakeUp(),
        () -> {
          if (executorsHaveArchive) {
            startupArchive.makeAfterExecutorsInBackground("The AM");
          } else {
            startupArchive.makeInBackground("The AM");
          }
        });
    org.elasticam.allocator.dynamic.AllocationPolicy policy = elastic.dynamicAllocationEnabled()
        ? org.elasticam.allocator.dynamic.AllocationPolicies.create(
            elastic.get(org.elasticam.conf.DynamicAllocationKeys.POLICY).name(),
            org.elasticam.allocator.dynamic.PolicySettings.from(elastic))
        : null;
    org.elasticam.allocator.streaming.StreamingPolicy streamingPolicy =
        elastic.get(org.elasticam.conf.StreamingKeys.ENABLED) && plan instanceof StreamingPlan sp
            ? org.elasticam.allocator.streaming.StreamingPolicies.create(
                elastic.get(org.elasticam.conf.StreamingKeys.POLICY).name().toLowerCase(java.util.Locale.ROOT),
                org.elasticam.allocator.streaming.StreamingSettings.from(elastic, sp.batchMs()), appId.hashCode())
            : null;
    JobEngine engine = new JobEngine(DriverSettings.from(elastic, appId), plan, scheduler,
        new EnginePorts(loop, clock, port, events), new JobPolicies(policy, streamingPolicy,
            elastic.get(org.elasticam.conf.StreamingKeys.DEBUG)), done::complete);
    Driver driver = new Driver(engine);
    amEvents.attach(engine);
    engine.shuffleCleaner(cleaner);
    if (restart.journal() != null) {
      driver.recordTo(restart.journal());
    }
    if (restart.recovery() != null) {
      driver.recover(restart.recovery());
    }
    loop.call(() -> {
      holder.set(driver, allocator);
      return null;
    });
    if (restart.journal() != null) {
      publishEndpoint(amHost, rpcPort);
    }
    hb[0] = new Heartbeater(amClient, loop, allocator, engine, amEvents.metrics(),
        org.elasticam.allocator.HeartbeatSchedule.Intervals.of(elastic),
        done::complete, tookMs -> loop.execute(() -> {
          LOG.warn("Re-registered with the ResourceManager (it restarted or failed over; that heartbeat took {} ms);"
              + " requests and exclusions were sent again", tookMs);
          events.write(Event.RM_RESYNCED, ALLOCATE_MS, tookMs);
        }), clock);
    loop.execute(engine::start);
    hb[0].start();
    Outcome outcome = done.get();
    hb[0].stop();
    return outcome;
  }

  // ---- pieces ---------------------------------------------------------------------------------

  private Server startControlPlane(DriverService service, AmLoop loop, byte[] secret) throws IOException {
    RefusalLog refusals = new RefusalLog(clock, REFUSAL_LOG_INTERVAL);
    loop.every(REFUSAL_LOG_INTERVAL, refusals::flush);
    NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress(0));
    if (elastic.get(YarnKeys.AM_SSL_ENABLED)) {
      builder.sslContext(org.elasticam.rpc.ControlPlaneTls.server(org.elasticam.rpc.HadoopTls.serverKeys(conf)));
      LOG.info("The control plane serves TLS with the keystore of Hadoop's {}",
          conf.get(org.apache.hadoop.security.ssl.SSLFactory.SSL_SERVER_CONF_KEY, "ssl-server.xml"));
    }
    return builder
        .addService(ServerInterceptors.intercept(service, AppSecretAuth.interceptor(secret, clock, refusals)))
        .maxInboundMessageSize(RpcLimits.MAX_MESSAGE_BYTES)
        .maxInboundMetadataSize(RpcLimits.MAX_METADATA_BYTES)
        .maxConcurrentCallsPerConnection(RpcLimits.MAX_CALLS_PER_CONNECTION)
        .permitKeepAliveTime(10, TimeUnit.SECONDS)
        .permitKeepAliveWithoutCalls(true)
        .handshakeTimeout(20, TimeUnit.SECONDS)
        .build()
        .start();
  }

  /** See {@link ControlPlaneWarmup}: while the first containers are granted and started. */
  private void warmControlPlane(String host, int port, byte[] secret) {
    io.grpc.netty.shaded.io.netty.handler.ssl.SslContext tls = null;
    if (elastic.get(YarnKeys.AM_SSL_ENABLED)) {
      try {
        tls = org.elasticam.rpc.ControlPlaneTls.client(org.elasticam.rpc.HadoopTls.clientTrust(conf));
      } catch (IOException e) {
        LOG.debug("No session with the AM's own control plane before executors register: no client TLS here: {}",
            e.toString());
        return;
      }
    }
    ControlPlaneWarmup.start(host, port, secret, tls, clock).thenAccept(a -> {
      if (a.answered()) {
        LOG.debug("The control plane answered the AM's own session in {} ms ({})", a.tookMs(), a.detail());
      } else {
        LOG.warn("The AM could not open a session with its own control plane at {}:{} ({}); executors dial the same"
            + " control plane and may fail to register", host, port, a.detail());
      }
    });
  }

  /**
   * Host and port executors dial: where the control plane listens, unless
   * {@code elasticam.yarn.am.advertisedAddress} names a NAT or port forward in front of it.
   */
  private String[] executorsDial(String amHost, int port) {
    String advertised = elastic.getOptional(YarnKeys.AM_ADVERTISED_ADDRESS).filter(s -> !s.isBlank()).orElse(null);
    if (advertised == null) {
      return new String[] {amHost, Integer.toString(port)};
    }
    int colon = advertised.lastIndexOf(':');
    LOG.info("Executors dial the control plane at {} ({} listens on {}:{})", advertised,
        YarnKeys.AM_ADVERTISED_ADDRESS.name(), amHost, port);
    return new String[] {advertised.substring(0, colon), advertised.substring(colon + 1)};
  }

  /** Executors that outlived an earlier attempt look here for this one. */
  private void publishEndpoint(String host, int port) {
    try {
      EndpointFile.publish(conf, env.staging(), host, port);
    } catch (IOException e) {
      LOG.warn("Could not publish the control plane's endpoint; executors will not survive a restart of this AM: {}",
          e.toString());
    }
  }

  private EventLog openEventLog(String appId, boolean continuing) {
    try {
      org.apache.hadoop.fs.Path dir = EventLog.dir(conf, elastic);
      FileSystem fs = dir.getFileSystem(conf);
      EventLog log = continuing ? EventLog.continueOrCreate(fs, dir, appId, clock) : EventLog.create(fs, dir, appId, clock);
      LOG.info("Event log: {}", log.path());
      return log;
    } catch (IOException e) {
      LOG.error("Could not open the event log; the run goes on without it: {}", e.toString());
      return EventLog.discarding(clock);
    }
  }

  private static void checkFits(Resource wanted, Resource max) {
    if (max != null && (wanted.getMemorySize() > max.getMemorySize() || wanted.getVirtualCores() > max.getVirtualCores())) {
      throw new IllegalStateException("An executor container needs " + wanted.getMemorySize() + " MiB and "
          + wanted.getVirtualCores() + " vcores, more than the cluster's largest container (" + max.getMemorySize()
          + " MiB, " + max.getVirtualCores() + " vcores): lower elasticam.executor.memory or elasticam.executor.cores");
    }
  }

  /**
   * With the shuffle service on, every executor's container carries the application's shuffle key
   * (derived from its secret, so no NodeManager holds the secret itself) to the service.
   */
  private ExecutorLaunchSpec launchSpec(String appId, String amHost, int port, byte[] secret,
      Optional<org.elasticam.launcher.yarn.StartupArchive> archive) throws IOException {
    boolean service = elastic.get(ShuffleKeys.SERVICE_ENABLED);
    String serviceName = elastic.get(ShuffleKeys.SERVICE_NAME);
    Map<String, java.nio.ByteBuffer> serviceData = service ? Map.of(serviceName,
        new SecretEnvelope(RequestSigner.deriveShuffleSecret(secret), true).encode()) : Map.of();
    StagingResources staged = StagingResources.read(conf, env.staging(), env.appJar(),
        job.kind() == JobSpec.Kind.USER);
    return new ExecutorLaunchSpec(amHost, port, appId, elastic.get(ExecutorKeys.CORES),
        elastic.get(ExecutorKeys.TASK_CPUS), elastic.get(ExecutorKeys.MEMORY).mebibytes(),
        elastic.get(ExecutorKeys.HEARTBEAT_INTERVAL), elastic.get(ExecutorKeys.HEARTBEAT_TIMEOUT),
        staged.executorResources(), List.of(conf.getStrings(YarnConfiguration.YARN_APPLICATION_CLASSPATH,
            YarnConfiguration.DEFAULT_YARN_CROSS_PLATFORM_APPLICATION_CLASSPATH)),
        AmTokens.executorTokens(), serviceData, job.kind() == JobSpec.Kind.USER ? Optional.of(AmFiles.USER_JAR) : Optional.empty(),
        service ? Optional.of(serviceName) : Optional.empty(), elastic.get(ShuffleKeys.READ_LOCAL_DIRECTLY),
        shuffleClientConf(), restarts.recoverable() ? Optional.of(EndpointFile.uri(conf, env.staging()))
            : Optional.empty(), elastic.get(ExecutorKeys.REREGISTER_TIMEOUT), elastic.get(YarnKeys.AM_SSL_ENABLED),
        elastic.get(ExecutorKeys.CONTROL_PLANE_TRANSPORT) == ExecutorKeys.ControlPlaneTransport.OKHTTP,
        conf.getPropsWithPrefix(EnvironmentKeys.EXECUTOR_ENV_PREFIX),
        JvmSettings.of(elastic.getOptional(ExecutorKeys.EXTRA_JAVA_OPTIONS).orElse(null),
            elastic.getOptional(ExecutorKeys.EXTRA_CLASS_PATH).orElse(null),
            elastic.getOptional(ExecutorKeys.EXTRA_LIBRARY_PATH).orElse(null)),
        archive, StartupArchives.classPathAgent(elastic));
  }

  /** The elasticam.shuffle.client.* keys of this submission, for executors' fetch clients. */
  private Map<String, String> shuffleClientConf() {
    Map<String, String> m = new java.util.TreeMap<>();
    conf.getPropsWithPrefix(SHUFFLE_CLIENT_PREFIX).forEach((k, v) -> m.put(SHUFFLE_CLIENT_PREFIX + k, v.trim()));
    return m;
  }

  private static final String SHUFFLE_CLIENT_PREFIX = "elasticam.shuffle.client.";
  /** At most one line about refused control-plane calls per this interval. */
  private static final java.time.Duration REFUSAL_LOG_INTERVAL = java.time.Duration.ofSeconds(10);

  /** Snapshot of what the status endpoint shows; event loop only. */
  static Map<String, Object> snapshot(JobEngine d, YarnAllocator a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("state", d.outcome().map(o -> o.status().name()).orElse("RUNNING"));
    m.put("progress", d.progress());
    m.put("executors", Map.of("registered", d.registeredExecutors(), "running", a.running(),
        "starting", a.starting(), "pending_requests", a.pendingAsks(), "target", a.target()));
    m.put("tasks", Map.of("done", d.tasksDone(), "total", d.tasksTotal(), "running", d.tasksRunning(),
        "pending", d.tasksPending()));
    d.streamingStatus().ifPresent(st -> m.put("streaming", st));
    d.outcome().ifPresent(o -> m.put("diagnostics", o.diagnostics()));
    return m;
  }
}
