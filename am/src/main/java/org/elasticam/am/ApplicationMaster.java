package org.elasticam.am;

import static org.elasticam.report.events.EventFields.ALLOCATE_MS;
import static org.elasticam.report.events.EventFields.AM_HEAP_MB;
import static org.elasticam.report.events.EventFields.APP_ID;
import static org.elasticam.report.events.EventFields.ATTEMPT;
import static org.elasticam.report.events.EventFields.BATCHES_DONE;
import static org.elasticam.report.events.EventFields.CONF;
import static org.elasticam.report.events.EventFields.CONTAINERS_KEPT;
import static org.elasticam.report.events.EventFields.DIAGNOSTICS;
import static org.elasticam.report.events.EventFields.EXECUTORS_ADOPTED;
import static org.elasticam.report.events.EventFields.EXECUTOR_SECONDS;
import static org.elasticam.report.events.EventFields.FINAL_STATUS;
import static org.elasticam.report.events.EventFields.HOST;
import static org.elasticam.report.events.EventFields.JAVA_HOME;
import static org.elasticam.report.events.EventFields.JAVA_VERSION;
import static org.elasticam.report.events.EventFields.JOB;
import static org.elasticam.report.events.EventFields.JOURNAL_FOUND;
import static org.elasticam.report.events.EventFields.PID;
import static org.elasticam.report.events.EventFields.RPC_PORT;
import static org.elasticam.report.events.EventFields.STAGES_RECOVERED;
import static org.elasticam.report.events.EventFields.TASKS_DONE_IN_RUNNING_STAGES;
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
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;
import org.apache.hadoop.yarn.api.protocolrecords.RegisterApplicationMasterResponse;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;
import org.elasticam.allocator.AllocatorSettings;
import org.elasticam.allocator.ExecutorAllocator;
import org.elasticam.am.conf.HadoopConfigSource;
import org.elasticam.am.driver.Driver;
import org.elasticam.am.security.AppAcls;
import org.elasticam.am.security.DelegationTokenFetch;
import org.elasticam.am.security.TokenRenewer;
import org.elasticam.am.driver.DriverService;
import org.elasticam.am.driver.DriverSettings;
import org.elasticam.am.driver.Outcome;
import org.elasticam.engine.scheduling.TaskScheduler;
import org.elasticam.am.events.EventLog;
import org.elasticam.am.events.ExecutorSeconds;
import org.elasticam.am.metrics.AmMetrics;
import org.elasticam.am.job.BuiltInJobs;
import org.elasticam.am.job.JobPlan;
import org.elasticam.am.job.JobArgsFile;
import org.elasticam.am.job.JobSpec;
import org.elasticam.am.job.StreamingPlan;
import org.elasticam.am.loop.AmLoop;
import org.elasticam.am.status.LivePageFront;
import org.elasticam.am.status.StatusServer;
import org.elasticam.allocator.ledger.HeldContainer;
import org.elasticam.allocator.model.ContainerRef;
import org.elasticam.allocator.model.ExecutorId;
import org.elasticam.am.driver.Recovery;
import org.elasticam.am.recovery.EndpointFile;
import org.elasticam.am.recovery.RecoveryJournal;
import org.elasticam.am.yarn.RackLookup;
import org.elasticam.rpc.journal.AmJournal;
import org.elasticam.am.yarn.YarnAllocator;
import org.elasticam.conf.ShuffleKeys;
import org.elasticam.shuffle.protocol.RequestSigner;
import org.elasticam.shuffle.protocol.SecretEnvelope;
import org.elasticam.conf.ConfigProblem;
import org.elasticam.conf.ElasticConf;
import org.elasticam.conf.EnvironmentKeys;
import org.elasticam.conf.ExecutorKeys;
import org.elasticam.conf.UnknownKeys;
import org.elasticam.conf.YarnKeys;
import org.elasticam.launcher.yarn.ExecutorLaunchSpec;
import org.elasticam.launcher.yarn.JvmSettings;
import org.elasticam.launcher.yarn.YarnContainerLauncher;
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
  private final Clock clock = Clock.system();
  private final CompletableFuture<Outcome> done = new CompletableFuture<>();

  ApplicationMaster(Configuration conf, ElasticConf elastic, JobSpec job) {
    this.conf = conf;
    this.elastic = elastic;
    this.job = job;
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
    return new ApplicationMaster(conf, elastic, spec).run();
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
    ContainerId containerId = ContainerId.fromString(requireEnv(Environment.CONTAINER_ID.name()));
    ApplicationAttemptId attempt = containerId.getApplicationAttemptId();
    String appId = attempt.getApplicationId().toString();
    String amHost = requireEnv(Environment.NM_HOST.name());
    byte[] secret = UserGroupInformation.getCurrentUser().getCredentials()
        .getSecretKey(new org.apache.hadoop.io.Text(AppSecretAuth.CREDENTIALS_KEY));
    if (secret == null) {
      throw new IOException("the application's credentials hold no secret; was it submitted by our client?");
    }
    // Before anything reads the file system: a later attempt may start after the first tokens expired.
    try (TokenRenewer renewer = startTokenRenewal()) {
      ExecutorSeconds executorSeconds = new ExecutorSeconds();
      AmLoop loop = new AmLoop(t -> done.complete(Outcome.failed("internal error in the AM: " + t)));
      Optional<AmJournal> previous = previousJournal(attempt.getAttemptId());
      EventLog events = openEventLog(appId, attempt.getAttemptId() > 1);
      AmMetrics metrics = new AmMetrics().register();
      AmEvents amEvents = new AmEvents(events, executorSeconds, metrics, clock);
      try (loop; events; ClusterNodes nodes = new ClusterNodes(conf, resourceManagerUser());
          AutoCloseable m = metrics::unregister) {
        events.write(Event.APP_START, APP_ID, appId, ATTEMPT, attempt.getAttemptId(), CONF,
            elastic.resolvedForDisplay(), JOB, job.toArgs(), JAVA_VERSION, System.getProperty("java.version"),
            JAVA_HOME, System.getenv("JAVA_HOME"));
        if (startTokens != null) {
          // The set obtained at start, before the log existed: every attempt's first own tokens.
          events.write(Event.TOKENS_RENEWED, TOKENS, startTokens.numberOfTokens());
        }
        return runWith(loop, events, amEvents, executorSeconds, nodes, appId, amHost, secret, attempt.getAttemptId(),
            previous);
      }
    }
  }

  /**
   * With a keytab on a secure cluster: the application's delegation tokens obtained afresh now, and
   * again before they expire, for as long as it runs. Null otherwise.
   */
  private TokenRenewer startTokenRenewal() throws IOException {
    if (!UserGroupInformation.isSecurityEnabled()) {
      return null;
    }
    Optional<String> principal = elastic.getOptional(YarnKeys.PRINCIPAL).filter(s -> !s.isBlank());
    Path keytab = Path.of(AmFiles.KEYTAB).toAbsolutePath();
    if (principal.isEmpty() || !Files.exists(keytab)) {
      LOG.info("No keytab: the ResourceManager renews this application's delegation tokens up to their maximum"
          + " lifetime; nothing replaces them after that");
      return null;
    }
    keytabUser = UserGroupInformation.loginUserFromKeytabAndReturnUGI(principal.get(), keytab.toString());
    TokenRenewer renewer = new TokenRenewer(conf, keytabUser, DelegationTokenFetch.filesystems(conf, elastic),
        elastic.get(YarnKeys.TOKEN_RENEWAL_FRACTION), clock, this::tokensRenewed);
    startTokens = renewer.start();
    return renewer;
  }

  /** The keytab's user on a secure cluster; null without a keytab. */
  private UserGroupInformation keytabUser;

  /**
   * Who may call the ResourceManager's client protocol (node reports): anyone without security;
   * with it, only a Kerberos user, so the keytab's; nobody without a keytab.
   */
  private Optional<UserGroupInformation> resourceManagerUser() throws IOException {
    if (!UserGroupInformation.isSecurityEnabled()) {
      return Optional.of(UserGroupInformation.getCurrentUser());
    }
    return Optional.ofNullable(keytabUser);
  }

  /** The tokens the keytab login obtained at start; null without a keytab. */
  private Credentials startTokens;

  /** Where renewed tokens go besides the AM's own clients; set once executors can be launched. */
  private volatile java.util.function.Consumer<Credentials> renewedTokensSink = fresh -> { };

  /** On the renewer's thread: the AM's own clients take the new tokens at once. */
  private void tokensRenewed(Credentials fresh) {
    try {
      UserGroupInformation.getCurrentUser().addCredentials(fresh);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    renewedTokensSink.accept(fresh);
  }

  /** Executors launched from now on get the new tokens in their launch context; live ones over the control plane. */
  private void sendRenewedTokens(Credentials fresh, YarnContainerLauncher launcher, AmLoop loop, DriverHolder holder,
      EventLog events) {
    try {
      launcher.updateTokens(executorTokens());
      DataOutputBuffer buf = new DataOutputBuffer();
      fresh.writeTokenStorageToStream(buf);
      com.google.protobuf.ByteString tokens = com.google.protobuf.ByteString.copyFrom(buf.getData(), 0, buf.getLength());
      loop.execute(() -> {
        holder.updateCredentials(tokens);
        events.write(Event.TOKENS_RENEWED, TOKENS, fresh.numberOfTokens());
      });
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Whether a new attempt of this AM keeps the executors: the application may have more than one. */
  private boolean recoverable() {
    return elastic.getOptional(YarnKeys.MAX_APP_ATTEMPTS).orElse(1) > 1;
  }

  /** What the earlier attempts journaled; empty on a first attempt, or when there is nothing to read. */
  private Optional<AmJournal> previousJournal(int attempt) {
    if (attempt <= 1 || !recoverable()) {
      return Optional.empty();
    }
    try {
      return RecoveryJournal.read(conf, requireEnv(AmFiles.ENV_STAGING_DIR));
    } catch (IOException e) {
      LOG.warn("Cannot read the journal of the earlier attempt; starting the job over: {}", e.toString());
      return Optional.empty();
    }
  }

  private int runWith(AmLoop loop, EventLog events, AmEvents amEvents, ExecutorSeconds executorSeconds,
      ClusterNodes nodes, String appId, String amHost, byte[] secret, int attempt, Optional<AmJournal> previous)
      throws Exception {
    JobPlan plan;
    try {
      plan = BuiltInJobs.plan(job, nodes.liveHosts(), conf);
    } catch (Exception e) {
      plan = null;
      done.complete(Outcome.failed("The job could not be planned: " + e.getMessage()));
    }
    AMRMClient<ContainerRequest> amClient = AMRMClient.createAMRMClient();
    amClient.init(conf);
    amClient.start();
    DriverHolder holder = new DriverHolder();
    Server grpc = startControlPlane(loop, holder, secret);
    StatusServer status = new StatusServer(LivePageFront.inContainer(conf, amHost, ApplicationId.fromString(appId),
        requireEnv(Environment.USER.name()), AppAcls.of(elastic),
        requireEnv(ApplicationConstants.APPLICATION_WEB_PROXY_BASE_ENV)), new StatusServer.Source() {
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
    LOG.info("Registered with the ResourceManager; control plane on {}:{}, status at {}", amHost, grpc.getPort(),
        trackingUrl);
    loop.call(() -> {
      events.write(Event.AM_REGISTERED, HOST, amHost, RPC_PORT, grpc.getPort(), TRACKING_URL, trackingUrl,
          PID, ProcessHandle.current().pid());
      return null;
    });
    Resource resource = Resource.newInstance(elastic.executorContainerMebibytes(), elastic.get(ExecutorKeys.CORES));
    checkFits(resource, reg.getMaximumResourceCapability());
    String[] dial = executorsDial(amHost, grpc.getPort());
    ExecutorLaunchSpec spec = launchSpec(appId, dial[0], Integer.parseInt(dial[1]), secret);
    try (YarnContainerLauncher launcher = new YarnContainerLauncher(conf, spec, elastic.get(YarnKeys.LAUNCHER_THREADS))) {
      renewedTokensSink = fresh -> sendRenewedTokens(fresh, launcher, loop, holder, events);
      YarnAllocator allocator = new YarnAllocator(amClient, launcher, loop,
          new ExecutorAllocator(AllocatorSettings.from(elastic)), resource,
          elastic.getOptional(YarnKeys.NODE_LABEL_EXPRESSION).filter(s -> !s.isBlank()), RackLookup.hadoop(conf),
          nodes, amEvents, clock);
      Restart restart = loop.call(() -> resume(reg, previous, attempt, allocator, executorSeconds, events, loop));
      try (AutoCloseable j = restart.journal() == null ? () -> { } : restart.journal();
          ServiceShuffleCleaner cleaner = new ServiceShuffleCleaner(appId, RequestSigner.deriveShuffleSecret(secret),
              org.elasticam.shuffle.client.ClientSettings.from(elastic), clock)) {
        Outcome outcome = plan == null ? done.get()
            : drive(loop, events, amEvents, holder, allocator, amClient, plan, appId, nodes, restart,
                dial[0], Integer.parseInt(dial[1]), cleaner);
        return finish(outcome, loop, events, amEvents, executorSeconds, holder, allocator, amClient, trackingUrl);
      }
    } finally {
      grpc.shutdownNow();
      status.close();
      amClient.stop();
    }
  }

  /**
   * This attempt's journal, and what it takes over from the earlier ones: the containers the
   * ResourceManager kept, whose executors will re-register, and the stages already completed.
   *
   * @param journal null when the application has a single attempt
   * @param recovery null on a first attempt, or when the earlier one left no journal
   */
  private record Restart(RecoveryJournal journal, Recovery recovery) {}

  /** Event loop. */
  private Restart resume(RegisterApplicationMasterResponse reg, Optional<AmJournal> previous, int attempt,
      YarnAllocator allocator, ExecutorSeconds executorSeconds, EventLog events, AmLoop loop) throws IOException {
    if (!recoverable()) {
      return new Restart(null, null);
    }
    String staging = requireEnv(AmFiles.ENV_STAGING_DIR);
    List<org.apache.hadoop.yarn.api.records.Container> kept = reg.getContainersFromPreviousAttempts();
    Map<String, HeldContainer> known = new LinkedHashMap<>();
    previous.ifPresent(p -> p.getExecutorsList().forEach(e -> known.put(e.getContainerId(), new HeldContainer(
        new ContainerRef(e.getContainerId()), new ExecutorId(e.getExecutorId()), e.getHost(),
        HeldContainer.State.RUNNING, e.getGrantedAtMs(), e.getGrantedAtMs()))));
    int nextId = previous.map(AmJournal::getNextExecutorId).orElse(1);
    List<HeldContainer> adopted = attempt > 1 ? allocator.adopt(kept, known, nextId) : List.of();
    previous.ifPresent(p -> executorSeconds.carryOver(p.getCompletedExecutorMs()));
    adopted.forEach(c -> executorSeconds.allocated(c.container().id(), c.grantedAtMs()));
    List<org.elasticam.rpc.journal.JournalStage> stagesDone =
        previous.map(AmJournal::getCompletedStagesList).orElse(List.of());
    List<org.elasticam.rpc.journal.JournalStage> stagesRunning =
        previous.map(AmJournal::getRunningStagesList).orElse(List.of());
    org.elasticam.rpc.journal.StreamProgress stream = previous.map(AmJournal::getStream)
        .orElse(org.elasticam.rpc.journal.StreamProgress.getDefaultInstance());
    RecoveryJournal journal = RecoveryJournal.start(conf, staging, attempt,
        allocator.core().ledger().nextExecutorId(), adopted.stream().map(RecoveryJournal::entry).toList(),
        stagesDone, stagesRunning, stream, executorSeconds::completedMs);
    journal.coalesceOn(r -> loop.schedule(JOURNAL_COALESCE, r));
    allocator.recordTo(journal);
    if (attempt <= 1) {
      return new Restart(journal, null);
    }
    java.util.Set<String> survivors = new java.util.HashSet<>();
    adopted.forEach(c -> survivors.add(c.executor().toString()));
    LOG.info("Attempt {} of the ApplicationMaster: the ResourceManager kept {} container(s); {} executor(s) adopted,"
        + " {} stage(s) completed before the restart{}", attempt, kept.size(), adopted.size(), stagesDone.size(),
        previous.isPresent() ? "" : " (no journal found: the job starts over)");
    events.write(Event.AM_RECOVERED, ATTEMPT, attempt, CONTAINERS_KEPT, kept.size(), EXECUTORS_ADOPTED,
        adopted.stream().map(c -> c.executor().toString()).toList(), STAGES_RECOVERED,
        stagesDone.stream().map(org.elasticam.rpc.journal.JournalStage::getStageId).toList(), TASKS_DONE_IN_RUNNING_STAGES,
        stagesRunning.stream().collect(java.util.stream.Collectors.toMap(s -> String.valueOf(s.getStageId()),
            org.elasticam.rpc.journal.JournalStage::getDoneTasksCount, (a, b) -> a, java.util.TreeMap::new)),
        BATCHES_DONE,
        stream.getBatchesDone(), JOURNAL_FOUND, previous.isPresent());
    return new Restart(journal, new Recovery(stagesDone, stagesRunning, survivors,
        elastic.get(ExecutorKeys.REREGISTER_TIMEOUT), stream));
  }

  private Outcome drive(AmLoop loop, EventLog events, AmEvents amEvents, DriverHolder holder, YarnAllocator allocator,
      AMRMClient<ContainerRequest> amClient, JobPlan plan, String appId, ClusterNodes nodes, Restart restart,
      String amHost, int rpcPort, org.elasticam.am.driver.ShuffleCleaner cleaner) throws Exception {
    RackLookup racks = RackLookup.hadoop(conf);
    TaskScheduler scheduler = new TaskScheduler(elastic.get(ExecutorKeys.TASK_MAX_FAILURES),
        elastic.get(ExecutorKeys.LOCALITY_WAIT), racks::rackOf);
    Heartbeater[] hb = new Heartbeater[1];
    YarnAllocatorPort port = new YarnAllocatorPort(allocator, () -> hb[0].wakeUp());
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
    Driver driver = new Driver(DriverSettings.from(elastic, appId), loop, plan, scheduler, port, events, clock,
        done::complete, policy, streamingPolicy, elastic.get(org.elasticam.conf.StreamingKeys.DEBUG));
    amEvents.attach(driver);
    driver.shuffleCleaner(cleaner);
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
    hb[0] = new Heartbeater(amClient, loop, allocator, driver, amEvents.metrics(), elastic.initialAllocationInterval(),
        elastic.get(YarnKeys.HEARTBEAT_INTERVAL), done::complete, tookMs -> loop.execute(() -> {
          LOG.warn("Re-registered with the ResourceManager (it restarted or failed over; that heartbeat took {} ms);"
              + " requests and exclusions were sent again", tookMs);
          events.write(Event.RM_RESYNCED, ALLOCATE_MS, tookMs);
        }), clock);
    loop.execute(driver::start);
    hb[0].start();
    Outcome outcome = done.get();
    hb[0].stop();
    return outcome;
  }

  private int finish(Outcome outcome, AmLoop loop, EventLog events, AmEvents amEvents, ExecutorSeconds es,
      DriverHolder holder, YarnAllocator allocator, AMRMClient<ContainerRequest> amClient, String trackingUrl)
      throws Exception {
    loop.call(() -> {
      amEvents.ending();
      holder.finish(outcome);
      allocator.releaseAll("the application is ending");
      return null;
    });
    drainContainers(loop, allocator, amClient, clock);
    loop.call(() -> {
      amEvents.unregisteringWith(allocator.heldContainers());
      return null;
    });
    FinalApplicationStatus status = switch (outcome.status()) {
      case SUCCEEDED -> FinalApplicationStatus.SUCCEEDED;
      case FAILED -> FinalApplicationStatus.FAILED;
      case KILLED -> FinalApplicationStatus.KILLED;
    };
    double seconds = loop.call(() -> es.seconds(clock.nowMs()));
    long heapMb = liveHeapMb();
    loop.call(() -> {
      events.write(Event.APP_END, FINAL_STATUS, status.name(), DIAGNOSTICS, outcome.diagnostics(),
          EXECUTOR_SECONDS, Math.round(seconds * 1000) / 1000.0, AM_HEAP_MB, heapMb);
      return null;
    });
    // Staging goes first: a client that sees the application finished may rely on it being gone,
    // and nothing needs the files now that every container is released.
    cleanUpStaging();
    amClient.unregisterApplicationMaster(status, outcome.diagnostics(), trackingUrl);
    LOG.info("Unregistered with final status {}: {}", status, outcome.diagnostics());
    return exitCode(outcome, allocator);
  }

  /**
   * Sends the releases and waits (briefly) for YARN to report the containers completed, so the
   * executors are gone before we unregister and the event log records how each one ended.
   */
  private static void drainContainers(AmLoop loop, YarnAllocator allocator, AMRMClient<ContainerRequest> amClient,
      Clock clock) {
    long deadline = clock.nowMs() + 5_000;
    try {
      while (clock.nowMs() < deadline) {
        org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse r = amClient.allocate(1.0f);
        int held = loop.call(() -> {
          allocator.handleResponse(r);
          return allocator.containersHeld();
        });
        if (held == 0) {
          return;
        }
        clock.sleep(200);
      }
      LOG.info("Unregistering with containers still held; YARN kills them");
    } catch (Exception e) {
      LOG.warn("Releasing containers at the end failed: {}", e.toString());
    }
  }

  /** The AM's live heap at the end, after a collection: what its state costs to keep. */
  private static long liveHeapMb() {
    System.gc();
    return java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() >> 20;
  }

  private static int exitCode(Outcome outcome, YarnAllocator allocator) {
    if (outcome.status() == Outcome.Status.SUCCEEDED) {
      return AmExitCodes.SUCCEEDED;
    }
    if (outcome.status() == Outcome.Status.KILLED) {
      return AmExitCodes.KILLED;
    }
    if (allocator.failure().isPresent()) {
      return AmExitCodes.TOO_MANY_EXECUTOR_FAILURES;
    }
    return outcome.diagnostics().startsWith("The ResourceManager") ? AmExitCodes.RESOURCE_MANAGER
        : outcome.diagnostics().startsWith("internal error") ? AmExitCodes.INTERNAL_ERROR : AmExitCodes.JOB_FAILED;
  }

  // ---- pieces ---------------------------------------------------------------------------------

  private Server startControlPlane(AmLoop loop, DriverHolder holder, byte[] secret) throws IOException {
    DriverService service = new DriverService(loop, holder);
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
      EndpointFile.publish(conf, requireEnv(AmFiles.ENV_STAGING_DIR), host, port);
    } catch (IOException e) {
      LOG.warn("Could not publish the control plane's endpoint; executors will not survive a restart of this AM: {}",
          e.toString());
    }
  }

  private EventLog openEventLog(String appId, boolean continuing) {
    try {
      FileSystem fs = FileSystem.get(conf);
      org.apache.hadoop.fs.Path dir = elastic.getOptional(ExecutorKeys.EVENT_LOG_DIR)
          .map(org.apache.hadoop.fs.Path::new)
          .orElseGet(() -> new org.apache.hadoop.fs.Path(fs.getHomeDirectory(), ".elasticam/events"));
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
  private ExecutorLaunchSpec launchSpec(String appId, String amHost, int port, byte[] secret) throws IOException {
    boolean service = elastic.get(ShuffleKeys.SERVICE_ENABLED);
    String serviceName = elastic.get(ShuffleKeys.SERVICE_NAME);
    Map<String, java.nio.ByteBuffer> serviceData = service ? Map.of(serviceName,
        new SecretEnvelope(RequestSigner.deriveShuffleSecret(secret), true).encode()) : Map.of();
    StagingResources staged = StagingResources.read(conf, requireEnv(AmFiles.ENV_STAGING_DIR),
        job.kind() == JobSpec.Kind.USER);
    return new ExecutorLaunchSpec(amHost, port, appId, elastic.get(ExecutorKeys.CORES),
        elastic.get(ExecutorKeys.TASK_CPUS), elastic.get(ExecutorKeys.MEMORY).mebibytes(),
        elastic.get(ExecutorKeys.HEARTBEAT_INTERVAL), elastic.get(ExecutorKeys.HEARTBEAT_TIMEOUT),
        staged.executorResources(), List.of(conf.getStrings(YarnConfiguration.YARN_APPLICATION_CLASSPATH,
            YarnConfiguration.DEFAULT_YARN_CROSS_PLATFORM_APPLICATION_CLASSPATH)),
        executorTokens(), serviceData, job.kind() == JobSpec.Kind.USER ? Optional.of(AmFiles.USER_JAR) : Optional.empty(),
        service ? Optional.of(serviceName) : Optional.empty(), elastic.get(ShuffleKeys.READ_LOCAL_DIRECTLY),
        shuffleClientConf(), recoverable() ? Optional.of(EndpointFile.uri(conf, requireEnv(AmFiles.ENV_STAGING_DIR)))
            : Optional.empty(), elastic.get(ExecutorKeys.REREGISTER_TIMEOUT), elastic.get(YarnKeys.AM_SSL_ENABLED),
        conf.getPropsWithPrefix(EnvironmentKeys.EXECUTOR_ENV_PREFIX),
        JvmSettings.of(elastic.getOptional(ExecutorKeys.EXTRA_JAVA_OPTIONS).orElse(null),
            elastic.getOptional(ExecutorKeys.EXTRA_CLASS_PATH).orElse(null),
            elastic.getOptional(ExecutorKeys.EXTRA_LIBRARY_PATH).orElse(null)),
        StartupArchives.forApplication(elastic, Path.of(AmFiles.APP_JAR)));
  }

  /** The elasticam.shuffle.client.* keys of this submission, for executors' fetch clients. */
  private Map<String, String> shuffleClientConf() {
    Map<String, String> m = new java.util.TreeMap<>();
    conf.getPropsWithPrefix(SHUFFLE_CLIENT_PREFIX).forEach((k, v) -> m.put(SHUFFLE_CLIENT_PREFIX + k, v.trim()));
    return m;
  }

  private static final String SHUFFLE_CLIENT_PREFIX = "elasticam.shuffle.client.";
  /** Task and stage completions reach the journal on disk together, at most this late. */
  private static final java.time.Duration JOURNAL_COALESCE = java.time.Duration.ofMillis(200);
  /** At most one line about refused control-plane calls per this interval. */
  private static final java.time.Duration REFUSAL_LOG_INTERVAL = java.time.Duration.ofSeconds(10);

  /** The application's credentials as executors get them: everything but the AMRMToken. */
  private static ByteBuffer executorTokens() throws IOException {
    Credentials creds = new Credentials(UserGroupInformation.getCurrentUser().getCredentials());
    Credentials out = new Credentials();
    for (Token<?> t : creds.getAllTokens()) {
      if (!AMRMTokenIdentifier.KIND_NAME.equals(t.getKind())) {
        out.addToken(t.getService(), t);
      }
    }
    for (org.apache.hadoop.io.Text k : creds.getAllSecretKeys()) {
      out.addSecretKey(k, creds.getSecretKey(k));
    }
    DataOutputBuffer buf = new DataOutputBuffer();
    out.writeTokenStorageToStream(buf);
    return ByteBuffer.wrap(buf.getData(), 0, buf.getLength());
  }

  private void cleanUpStaging() {
    if (elastic.get(YarnKeys.PRESERVE_STAGING_FILES)) {
      return;
    }
    String dir = System.getenv(AmFiles.ENV_STAGING_DIR);
    try {
      org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(dir);
      p.getFileSystem(conf).delete(p, true);
    } catch (Exception e) {
      LOG.warn("Could not remove the staging directory {}: {}", dir, e.toString());
    }
  }

  private static String requireEnv(String name) {
    String v = System.getenv(name);
    if (v == null || v.isBlank()) {
      throw new IllegalStateException("environment variable " + name + " is not set: the AM runs in a YARN container");
    }
    return v;
  }

  /** Snapshot of what the status endpoint shows; event loop only. */
  static Map<String, Object> snapshot(Driver d, YarnAllocator a) {
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
