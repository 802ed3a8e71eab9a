package org.elasticam.executor;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.elasticam.executor.shuffle.ExecutorShuffle;
import org.elasticam.rpc.AppSecretAuth;
import org.elasticam.rpc.ControlPlaneChannels;
import org.elasticam.rpc.proto.CommitRequest;
import org.elasticam.rpc.proto.DriverGrpc;
import org.elasticam.rpc.proto.DriverMessage;
import org.elasticam.rpc.proto.ExecutorMessage;
import org.elasticam.rpc.proto.Heartbeat;
import org.elasticam.rpc.proto.Register;
import org.elasticam.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The executor's session with the driver: register, heartbeat, run what it is sent, report, and
 * exit when told to — or by itself when the driver has been silent for the heartbeat timeout, so
 * a lost driver leaves no orphan containers.
 *
 * <p>When the application may have another AM attempt ({@link ExecutorArgs#driverEndpointFile}),
 * losing the driver is not the end: the executor stops its running tasks (no one would hear how
 * they ended), keeps its shuffle output, and looks for the next attempt's endpoint for up to the
 * re-register timeout, then registers with it as a survivor.
 */
public final class ExecutorBackend {

  private static final Logger LOG = LoggerFactory.getLogger(ExecutorBackend.class);
  /** How often to look for a new AM's endpoint after losing the driver. */
  private static final long REATTACH_POLL_MS = 500;

  private final ExecutorArgs args;
  private final String host;
  private final String containerId;
  private final byte[] secret;
  private final Clock clock;
  private final Path scratchRoot;
  private final ExecutorShuffle shuffle;
  /** Null: the driver speaks plaintext. */
  private io.grpc.netty.shaded.io.netty.handler.ssl.SslContext controlPlaneTls;

  /** How one connection to a driver ended. */
  private record End(int code, String why, boolean driverLost, boolean wasRegistered) {}

  /** @param shuffle the executor's shuffle, or null when it has none */
  public ExecutorBackend(ExecutorArgs args, String host, String containerId, byte[] secret, Clock clock,
      Path scratchRoot, ExecutorShuffle shuffle) {
    this.args = args;
    this.host = host;
    this.containerId = containerId;
    this.secret = secret.clone();
    this.clock = clock;
    this.scratchRoot = scratchRoot;
    this.shuffle = shuffle;
  }

  /** Where the start-up went, to send with the registration and log at the first task. Before {@link #run}. */
  private StartPhases startPhases = new StartPhases();
  private Runnable onRegistered = () -> { };

  /** Runs once, on the control-plane thread, when the driver accepted the first registration. */
  public ExecutorBackend onRegistered(Runnable action) {
    this.onRegistered = action;
    return this;
  }

  public ExecutorBackend withStartPhases(StartPhases phases) {
    this.startPhases = phases;
    return this;
  }

  /** The driver serves TLS: its certificate is checked with this context. Before {@link #run}. */
  public ExecutorBackend withControlPlaneTls(io.grpc.netty.shaded.io.netty.handler.ssl.SslContext tls) {
    this.controlPlaneTls = tls;
    return this;
  }

  /** Runs the session to its end, through AM restarts when allowed; returns the process exit code. */
  public int run() throws Exception {
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "heartbeat");
      t.setDaemon(true);
      return t;
    });
    try (TaskLoader loader = new TaskLoader(args.userJar())) {
      DriverEndpoint endpoint = new DriverEndpoint(args.driverHost(), args.driverPort());
      DriverEndpoint lost = null;
      long deadlineMs = Long.MAX_VALUE;
      boolean reattach = false;
      while (true) {
        End end = connect(endpoint, loader, timer, reattach);
        if (!end.driverLost() || args.driverEndpointFile().isEmpty()) {
          return exit(end.code(), end.why());
        }
        if (end.wasRegistered() || lost == null) {
          lost = endpoint;
          deadlineMs = clock.nowMs() + args.reregisterTimeout().toMillis();
          LOG.warn("Executor {} lost the driver at {} ({}); looking for a new ApplicationMaster attempt for up to {} ms",
              args.executorId(), endpoint, end.why(), args.reregisterTimeout().toMillis());
        }
        if (reattach && !end.wasRegistered()) {
          // The new AM is up but not ready for us yet: ask again shortly, not in a tight loop.
          clock.sleep(REATTACH_POLL_MS);
        }
        Optional<DriverEndpoint> next = awaitNewDriver(lost, deadlineMs);
        if (next.isEmpty()) {
          return exit(ExitCodes.DRIVER_LOST, "no new ApplicationMaster within " + args.reregisterTimeout().toMillis()
              + " ms of losing the driver (" + end.why() + ")");
        }
        endpoint = next.get();
        reattach = true;
      }
    } finally {
      timer.shutdownNow();
    }
  }

  /** Polls the endpoint file until it names a driver other than the lost one; empty at the deadline. */
  private Optional<DriverEndpoint> awaitNewDriver(DriverEndpoint lost, long deadlineMs) throws InterruptedException {
    StartupClassPath.complete(); // the file is read through Hadoop's FileSystem
    while (clock.nowMs() < deadlineMs) {
      try {
        Optional<DriverEndpoint> e = DriverEndpointFile.read(args.driverEndpointFile().get());
        if (e.isPresent() && !e.get().equals(lost)) {
          return e;
        }
      } catch (IOException | IllegalArgumentException e) {
        LOG.debug("Could not read the driver endpoint file: {}", e.toString());
      }
      clock.sleep(REATTACH_POLL_MS);
    }
    return Optional.empty();
  }

  /** One connection to one driver, from Register to its end. */
  private End connect(DriverEndpoint endpoint, TaskLoader loader, ScheduledExecutorService timer, boolean reattach)
      throws InterruptedException {
    ManagedChannel channel = ControlPlaneChannels.executorBuilder(endpoint.host(), endpoint.port(), controlPlaneTls,
            args.okHttpControlPlane())
        .keepAliveTime(20, TimeUnit.SECONDS)
        .keepAliveTimeout(10, TimeUnit.SECONDS)
        .build();
    Session session = new Session(loader);
    java.util.concurrent.ScheduledFuture<?> beat = null;
    try {
      StreamObserver<ExecutorMessage> up = DriverGrpc.newStub(channel)
          .withCallCredentials(AppSecretAuth.credentials(secret, clock))
          .session(session);
      session.start(new Outbox(up), reattach);
      long tick = args.heartbeatInterval().toMillis();
      beat = timer.scheduleAtFixedRate(session::heartbeat, tick, tick, TimeUnit.MILLISECONDS);
      return session.end.get();
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    } finally {
      if (beat != null) {
        beat.cancel(false);
      }
      session.close();
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  private int exit(int code, String why) {
    if (code == ExitCodes.OK) {
      LOG.info("Executor {} stopping: {}", args.executorId(), why);
    } else {
      LOG.error("Executor {} exiting with code {}: {}", args.executorId(), code, why);
    }
    return code;
  }

  /** Reads what one driver sends; owns the task runner of that connection. */
  private final class Session implements StreamObserver<DriverMessage> {
    private final TaskLoader loader;
    private final CompletableFuture<End> end = new CompletableFuture<>();
    private final AtomicLong lastContactMs = new AtomicLong(clock.nowMs());
    private volatile Outbox outbox;
    private volatile TaskRunner runner;
    private volatile CommitRequests commits;
    private volatile boolean registered;

    Session(TaskLoader loader) {
      this.loader = loader;
    }

    void start(Outbox out, boolean reattach) {
      this.outbox = out;
      this.commits = new CommitRequests(id -> out.send(ExecutorMessage.newBuilder()
          .setCommitRequest(CommitRequest.newBuilder().setTaskId(id)).build()), args.heartbeatTimeout());
      this.runner = new TaskRunner(args.slots(), loader, String.valueOf(args.executorId()), host,
          scratchRoot, clock, u -> out.send(ExecutorMessage.newBuilder().setTaskUpdate(u).build()), shuffle, commits);
      Register.Builder r = Register.newBuilder().setExecutorId(args.executorId()).setHost(host)
          .setContainerId(containerId).setCores(args.cores()).setPid(ProcessHandle.current().pid())
          .setReattach(reattach).setJavaVersion(System.getProperty("java.version", ""))
          .setJavaHome(java.util.Objects.requireNonNullElse(System.getenv("JAVA_HOME"), ""));
      if (shuffle != null) {
        r.setShuffleExternal(shuffle.external());
        shuffle.localDirs().forEach(d -> r.addLocalDirs(d.toString()));
      }
      startPhases.mark("register sent");
      startPhases.into(r.getStartBuilder());
      out.send(ExecutorMessage.newBuilder().setRegister(r).build());
    }

    private void finish(int code, String why, boolean driverLost) {
      end.complete(new End(code, why, driverLost, registered));
    }

    void heartbeat() {
      long silent = clock.nowMs() - lastContactMs.get();
      if (silent > args.heartbeatTimeout().toMillis()) {
        finish(ExitCodes.DRIVER_LOST, "no word from the driver for " + silent + " ms", true);
        return;
      }
      Heartbeat.Builder hb = Heartbeat.newBuilder().setSentAtMs(clock.nowMs());
      runner.runningTaskIds().forEach(hb::addRunningTaskIds);
      outbox.send(ExecutorMessage.newBuilder().setHeartbeat(hb).build());
    }

    @Override
    public void onNext(DriverMessage m) {
      lastContactMs.set(clock.nowMs());
      switch (m.getBodyCase()) {
        case REGISTERED -> {
          registered = true;
          if (startPhases.marks().get("registered") == null) {
            startPhases.mark("registered");
            onRegistered.run();
          }
          LOG.info("Executor {} registered with the driver of {} as {} ({} task slots, {} ms after JVM start)",
              args.executorId(), m.getRegistered().getAppId(), host, args.slots(),
              java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime());
        }
        case LAUNCH_TASK -> {
          if (startPhases.marks().get("first task") == null) {
            startPhases.mark("first task");
            startPhases.logOnce(String.valueOf(args.executorId()));
          }
          runner.launch(m.getLaunchTask());
        }
        case KILL_TASK -> runner.kill(m.getKillTask().getTaskId());
        case COMMIT_ANSWER -> commits.answered(m.getCommitAnswer().getTaskId(), m.getCommitAnswer().getAllowed());
        case SHUTDOWN -> finish(ExitCodes.OK, m.getShutdown().getReason(), false);
        case UPDATE_CREDENTIALS -> takeTokens(m.getUpdateCredentials().getTokens());
        case HEARTBEAT_ACK, BODY_NOT_SET -> { }
        default -> LOG.warn("Ignoring an unknown message from the driver: {}", m.getBodyCase());
      }
    }

    private void takeTokens(com.google.protobuf.ByteString tokens) {
      StartupClassPath.complete(); // through Hadoop's Credentials and UserGroupInformation
      try {
        LOG.info("Executor {} took {} new delegation token(s) from the driver", args.executorId(),
            DelegationTokens.take(tokens));
      } catch (IOException e) {
        // The old tokens still work until they expire; the next renewal brings new ones again.
        LOG.warn("Executor {} could not read the delegation tokens the driver sent: {}", args.executorId(),
            e.toString());
      }
    }

    @Override
    public void onError(Throwable t) {
      Status s = Status.fromThrowable(t);
      if (!registered && (s.getCode() == Status.Code.UNAUTHENTICATED || s.getCode() == Status.Code.FAILED_PRECONDITION
          || s.getCode() == Status.Code.PERMISSION_DENIED)) {
        finish(ExitCodes.REFUSED, "the driver refused this executor: " + s.getDescription(), false);
      } else {
        finish(ExitCodes.DRIVER_LOST, "lost the driver: " + s.getCode() + " " + s.getDescription(), true);
      }
    }

    @Override
    public void onCompleted() {
      finish(ExitCodes.OK, "the driver ended the session", false);
    }

    /** Stops this connection's tasks; the shuffle output they finished stays. */
    void close() {
      if (runner != null) {
        runner.close();
      }
      if (outbox != null) {
        outbox.close();
      }
    }
  }
}
