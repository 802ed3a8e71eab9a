package org.elasticam.am.driver;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import org.elasticam.api.ShuffleSpec;
import org.elasticam.engine.job.ExecutorLink;
import org.elasticam.engine.job.JobEngine;
import org.elasticam.engine.job.TaskLaunch;
import org.elasticam.engine.lineage.ShuffleInput;
import org.elasticam.rpc.proto.CommitAnswer;
import org.elasticam.rpc.proto.DriverMessage;
import org.elasticam.rpc.proto.KillTask;
import org.elasticam.rpc.proto.LaunchTask;
import org.elasticam.rpc.proto.MapOutputLocation;
import org.elasticam.rpc.proto.Registered;
import org.elasticam.rpc.proto.ShuffleRead;
import org.elasticam.rpc.proto.ShuffleWrite;
import org.elasticam.rpc.proto.Shutdown;
import org.elasticam.rpc.proto.UpdateCredentials;

/**
 * The driver's end of one executor's control-plane stream, and the engine's {@link ExecutorLink}
 * to it: what the engine says becomes a message. Sent to only from the AM's event loop, so the
 * non-thread-safe stream observer is used by one thread.
 */
public final class ExecutorSession implements ExecutorLink {

  private final StreamObserver<DriverMessage> down;
  /** Runs once, when either side closes the stream. */
  private final Runnable onClosed;
  private boolean closed;
  /** The engine's session once it accepted the registration; null before. */
  private JobEngine.Session engineSession;

  ExecutorSession(StreamObserver<DriverMessage> down, Runnable onClosed) {
    this.down = down;
    this.onClosed = onClosed;
  }

  boolean registered() {
    return engineSession != null;
  }

  JobEngine.Session engineSession() {
    return engineSession;
  }

  /** The engine accepted the registration ({@code s} non-null) or refused it. */
  void attach(JobEngine.Session s) {
    engineSession = s;
  }

  @Override
  public void registered(String appId, long heartbeatIntervalMs) {
    send(DriverMessage.newBuilder().setRegistered(Registered.newBuilder().setAppId(appId)
        .setHeartbeatIntervalMs(heartbeatIntervalMs)).build());
  }

  @Override
  public void launch(TaskLaunch t) {
    send(DriverMessage.newBuilder().setLaunchTask(launchTask(t)).build());
  }

  /** The control plane's form of an attempt to start. */
  static LaunchTask launchTask(TaskLaunch t) {
    LaunchTask.Builder launch = LaunchTask.newBuilder().setTaskId(t.attempt().taskId())
        .setStageId(t.attempt().stageId()).setPartition(t.attempt().index()).setAttempt(t.attempt().attempt())
        .setTaskClass(t.attempt().taskClass()).putAllParams(t.attempt().params());
    if (t.stageIdBase() >= 0) {
      launch.setStageIdBase(t.stageIdBase());
    }
    if (t.write() != null) {
      ShuffleSpec spec = t.write().spec();
      launch.setShuffleWrite(ShuffleWrite.newBuilder().setShuffleId(t.write().shuffleId())
          .setPartitions(t.write().partitions()).setReplace(t.write().replace())
          .setPartitionerClass(spec.partitionerClass()).setKeyOrderClass(spec.keyOrderClass())
          .setCombinerClass(spec.combinerClass()).putAllShuffleParams(spec.params()));
    }
    if (t.outputDir() != null) {
      launch.setOutputDir(t.outputDir());
    }
    t.reads().forEach(r -> launch.addShuffleReads(read(r)));
    return launch.build();
  }

  /** The control plane's form of a shuffle's map output locations. */
  static ShuffleRead read(ShuffleInput in) {
    ShuffleRead.Builder r = ShuffleRead.newBuilder().setShuffleId(in.shuffleId()).setMaps(in.maps())
        .setKeyOrderClass(in.writer().keyOrderClass()).putAllShuffleParams(in.writer().params());
    for (ShuffleInput.Location l : in.locations()) {
      r.addLocations(MapOutputLocation.newBuilder().setExecutorId(l.executorId()).setHost(l.host())
          .setPort(l.port()).addAllLocalDirs(l.localDirs()).addAllMapIds(l.mapIds()));
    }
    return r.build();
  }

  @Override
  public void kill(long taskId) {
    send(DriverMessage.newBuilder().setKillTask(KillTask.newBuilder().setTaskId(taskId)).build());
  }

  @Override
  public void commitAnswer(long taskId, boolean allowed) {
    send(DriverMessage.newBuilder().setCommitAnswer(CommitAnswer.newBuilder().setTaskId(taskId).setAllowed(allowed))
        .build());
  }

  @Override
  public void credentials(byte[] tokens) {
    send(DriverMessage.newBuilder().setUpdateCredentials(UpdateCredentials.newBuilder()
        .setTokens(ByteString.copyFrom(tokens))).build());
  }

  @Override
  public void shutdown(String reason) {
    send(DriverMessage.newBuilder().setShutdown(Shutdown.newBuilder().setReason(reason)).build());
  }

  @Override
  public void refuse(String why) {
    refuse(Status.FAILED_PRECONDITION.withDescription(why));
  }

  void send(DriverMessage m) {
    if (closed) {
      return;
    }
    try {
      down.onNext(m);
    } catch (RuntimeException e) {
      // The stream is already broken; its onError will tell the driver.
      markClosed();
    }
  }

  public void refuse(Status status) {
    if (!closed) {
      markClosed();
      try {
        down.onError(status.asRuntimeException());
      } catch (RuntimeException ignored) {
        // already closed by the transport
      }
    }
  }

  @Override
  public void end() {
    if (!closed) {
      markClosed();
      try {
        down.onCompleted();
      } catch (RuntimeException ignored) {
        // already closed by the transport
      }
    }
  }

  boolean isClosed() {
    return closed;
  }

  void markClosed() {
    if (!closed) {
      closed = true;
      onClosed.run();
    }
  }
}
