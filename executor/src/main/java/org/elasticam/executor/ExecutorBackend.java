package org.elasticam.executor;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.elasticam.executor.shuffle.ExecutorShuffle;
import org.elasticam.rpc.AppSecretAuth;
import org.elasticam.rpc.RpcLimits;
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
 */
public final class ExecutorBackend {

  private static final Logger LOG = LoggerFactory.getLogger(ExecutorBackend.class);

  private final ExecutorArgs args;
  private final String host;
  private final String containerId;
  private final byte[] secret;
  private final Clock clock;
  private final Path scratchRoot;
  private final ExecutorShuffle shuffle;
  private final AtomicLong lastContactMs = new AtomicLong();
  private final AtomicInteger exitCode = new AtomicInteger(-1);
  private final CountDownLatch done = new CountDownLatch(1);

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

  /** Runs the session to its end; returns the process exit code. */
  public int run() throws Exception {
    ManagedChannel channel = NettyChannelBuilder.forAddress(args.driverHost(), args.driverPort())
        .usePlaintext()
        .maxInboundMessageSize(RpcLimits.MAX_MESSAGE_BYTES)
        .maxInboundMetadataSize(RpcLimits.MAX_METADATA_BYTES)
        .keepAliveTime(20, TimeUnit.SECONDS)
        .keepAliveTimeout(10, TimeUnit.SECONDS)
        .build();
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "heartbeat");
      t.setDaemon(true);
      return t;
    });
    try (TaskLoader loader = new TaskLoader(args.userJar())) {
      lastContactMs.set(clock.nowMs());
      Session session = new Session(loader);
      StreamObserver<ExecutorMessage> up = DriverGrpc.newStub(channel)
          .withCallCredentials(AppSecretAuth.credentials(secret, clock))
          .session(session);
      session.start(new Outbox(up));
      long tick = args.heartbeatInterval().toMillis();
      timer.scheduleAtFixedRate(session::heartbeat, tick, tick, TimeUnit.MILLISECONDS);
      done.await();
      session.close();
      return exitCode.get();
    } finally {
      timer.shutdownNow();
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  private void finish(int code, String why) {
    if (exitCode.compareAndSet(-1, code)) {
      if (code == ExitCodes.OK) {
        LOG.info("Executor {} stopping: {}", args.executorId(), why);
      } else {
        LOG.error("Executor {} exiting with code {}: {}", args.executorId(), code, why);
      }
      done.countDown();
    }
  }

  /** Reads what the driver sends; owns the task runner. */
  private final class Session implements StreamObserver<DriverMessage> {
    private final TaskLoader loader;
    private volatile Outbox outbox;
    private volatile TaskRunner runner;
    private volatile boolean registered;

    Session(TaskLoader loader) {
      this.loader = loader;
    }

    void start(Outbox out) {
      this.outbox = out;
      this.runner = new TaskRunner(args.slots(), loader, String.valueOf(args.executorId()), host,
          scratchRoot, clock, u -> out.send(ExecutorMessage.newBuilder().setTaskUpdate(u).build()), shuffle);
      Register.Builder r = Register.newBuilder().setExecutorId(args.executorId()).setHost(host)
          .setContainerId(containerId).setCores(args.cores()).setPid(ProcessHandle.current().pid());
      if (shuffle != null) {
        r.setShuffleExternal(shuffle.external());
        shuffle.localDirs().forEach(d -> r.addLocalDirs(d.toString()));
      }
      out.send(ExecutorMessage.newBuilder().setRegister(r).build());
    }

    void heartbeat() {
      long silent = clock.nowMs() - lastContactMs.get();
      if (silent > args.heartbeatTimeout().toMillis()) {
        finish(ExitCodes.DRIVER_LOST, "no word from the driver for " + silent + " ms");
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
          LOG.info("Executor {} registered with the driver of {} as {} ({} task slots, {} ms after JVM start)",
              args.executorId(), m.getRegistered().getAppId(), host, args.slots(),
              java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime());
        }
        case LAUNCH_TASK -> runner.launch(m.getLaunchTask());
        case KILL_TASK -> runner.kill(m.getKillTask().getTaskId());
        case SHUTDOWN -> finish(ExitCodes.OK, m.getShutdown().getReason());
        case HEARTBEAT_ACK, BODY_NOT_SET -> { }
        default -> LOG.warn("Ignoring an unknown message from the driver: {}", m.getBodyCase());
      }
    }

    @Override
    public void onError(Throwable t) {
      Status s = Status.fromThrowable(t);
      if (!registered && (s.getCode() == Status.Code.UNAUTHENTICATED || s.getCode() == Status.Code.FAILED_PRECONDITION
          || s.getCode() == Status.Code.PERMISSION_DENIED)) {
        finish(ExitCodes.REFUSED, "the driver refused this executor: " + s.getDescription());
      } else {
        finish(ExitCodes.DRIVER_LOST, "lost the driver: " + s.getCode() + " " + s.getDescription());
      }
    }

    @Override
    public void onCompleted() {
      finish(ExitCodes.OK, "the driver ended the session");
    }

    void close() {
      runner.close();
      outbox.close();
    }
  }
}
