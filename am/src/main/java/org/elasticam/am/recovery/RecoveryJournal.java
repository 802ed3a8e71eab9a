package org.elasticam.am.recovery;

import com.google.protobuf.InvalidProtocolBufferException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.elasticam.allocator.ledger.HeldContainer;
import org.elasticam.am.driver.Recovery;
import org.elasticam.am.yarn.ContainerJournal;
import org.elasticam.rpc.journal.AmJournal;
import org.elasticam.rpc.journal.JournalExecutor;
import org.elasticam.rpc.journal.JournalMapOutput;
import org.elasticam.rpc.journal.JournalStage;
import org.elasticam.rpc.journal.StreamProgress;
import org.elasticam.time.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The AM's recovery journal: which executor runs in which container, which stages completed and
 * where their shuffle output is. Kept in memory on the event loop and written whole to the staging
 * directory on every change by a writer thread, newest version wins, so a slow file system never
 * stalls the loop — except before a launch: an executor is launched only once the journal names
 * its container, so a later attempt can never meet a container it knows nothing about, nor hand
 * out an executor id twice.
 *
 * <p>A failed write is logged and tried again a second later (on the owning thread's timer, once
 * {@link #runOn} gave one), and with every change, until one succeeds: a change followed by none (a
 * finished stage before a long pause) must still reach the disk. A journal behind the state costs
 * a re-run of stages after a restart, never correctness.
 */
public final class RecoveryJournal implements Recovery.Journal, ContainerJournal, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RecoveryJournal.class);
  public static final String NAME = "am-journal";
  /** How soon a failed write is tried again when no change comes to try it sooner. */
  static final Duration RETRY = Duration.ofSeconds(1);

  private final StagingFiles files;
  private final AmJournal.Builder state;
  private final LongSupplier completedExecutorMs;
  private final ExecutorService writer;
  private final Object writeLock = new Object();
  private long version;
  private long written;
  private byte[] latest;
  private boolean warned;
  /** A retry of a failed write is waiting for its time; set by the writer, cleared on the timer's thread. */
  private final AtomicBoolean retryPending = new AtomicBoolean();
  /** The owning thread's timer for retries; none until {@link #runOn}. */
  private volatile Scheduler timer;
  /** Runs a task on the owning thread a little later; at once until {@link #coalesceOn} is called. */
  private java.util.function.Consumer<Runnable> later = Runnable::run;
  private boolean flushPending;
  /** Set once the application is ending: the staging directory that holds the journal goes next. */
  private volatile boolean closed;

  private static ExecutorService writerThread() {
    return Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "journal-writer");
      t.setDaemon(true);
      return t;
    });
  }

  private RecoveryJournal(StagingFiles files, AmJournal.Builder state, LongSupplier completedExecutorMs,
      ExecutorService writer) {
    this.writer = writer;
    this.files = files;
    this.state = state;
    this.completedExecutorMs = completedExecutorMs;
  }

  /** The journal the earlier attempts left; empty when there is none. */
  public static Optional<AmJournal> read(Configuration conf, String stagingDir) throws IOException {
    Optional<byte[]> bytes = new StagingFiles(conf, stagingDir).read(NAME);
    if (bytes.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(AmJournal.parseFrom(bytes.get()));
    } catch (InvalidProtocolBufferException e) {
      throw new IOException("the AM journal in " + stagingDir + " is corrupt: " + e.getMessage(), e);
    }
  }

  /**
   * This attempt's journal, starting from what it carries over: the survivors, the completed
   * stages, the executor ids already used and the executor-time already spent.
   *
   * @param completedExecutorMs executor-milliseconds of completed containers so far, read at each write
   */
  public static RecoveryJournal start(Configuration conf, String stagingDir, int attempt, int nextExecutorId,
      List<JournalExecutor> survivors, List<JournalStage> completedStages, List<JournalStage> runningStages,
      StreamProgress stream, LongSupplier completedExecutorMs) throws IOException {
    return start(conf, stagingDir, attempt, nextExecutorId, survivors, completedStages, runningStages, stream,
        completedExecutorMs, writerThread());
  }

  /** As the public one, with the executor that writes (tests write on the caller's thread). */
  static RecoveryJournal start(Configuration conf, String stagingDir, int attempt, int nextExecutorId,
      List<JournalExecutor> survivors, List<JournalStage> completedStages, List<JournalStage> runningStages,
      StreamProgress stream, LongSupplier completedExecutorMs, ExecutorService writer)
      throws IOException {
    AmJournal.Builder b = AmJournal.newBuilder().setAttempt(attempt).setNextExecutorId(nextExecutorId)
        .addAllExecutors(survivors).addAllCompletedStages(completedStages).addAllRunningStages(runningStages)
        .setStream(stream);
    RecoveryJournal j = new RecoveryJournal(new StagingFiles(conf, stagingDir), b, completedExecutorMs, writer);
    j.persist(true);
    return j;
  }

  /** Executors about to be launched: returns once the journal on disk names them. Event loop. */
  @Override
  public void launching(List<HeldContainer> launches, int nextExecutorId) {
    for (HeldContainer c : launches) {
      state.addExecutors(entry(c));
    }
    state.setNextExecutorId(Math.max(state.getNextExecutorId(), nextExecutorId));
    persist(true);
  }

  /** How the journal names an executor's container. */
  public static JournalExecutor entry(HeldContainer c) {
    return JournalExecutor.newBuilder().setExecutorId(c.executor().value()).setContainerId(c.container().id())
        .setHost(c.host()).setGrantedAtMs(c.grantedAtMs()).build();
  }

  /** The container completed: no later attempt will meet it. Event loop. */
  @Override
  public void completed(String containerId) {
    for (int i = 0; i < state.getExecutorsCount(); i++) {
      if (state.getExecutors(i).getContainerId().equals(containerId)) {
        state.removeExecutors(i);
        persist(false);
        return;
      }
    }
  }

  @Override
  public void taskSucceeded(int stageId, int task, JournalMapOutput output) {
    int i = 0;
    while (i < state.getRunningStagesCount() && state.getRunningStages(i).getStageId() != stageId) {
      i++;
    }
    JournalStage.Builder s = i < state.getRunningStagesCount() ? state.getRunningStages(i).toBuilder()
        : JournalStage.newBuilder().setStageId(stageId);
    s.addDoneTasks(task);
    if (output != null) {
      s.addOutputs(output);
    }
    if (i < state.getRunningStagesCount()) {
      state.setRunningStages(i, s);
    } else {
      state.addRunningStages(s);
    }
    persist(false);
  }

  @Override
  public void stageCompleted(JournalStage stage) {
    for (int i = 0; i < state.getRunningStagesCount(); i++) {
      if (state.getRunningStages(i).getStageId() == stage.getStageId()) {
        state.removeRunningStages(i);
        break;
      }
    }
    for (int i = 0; i < state.getCompletedStagesCount(); i++) {
      if (state.getCompletedStages(i).getStageId() == stage.getStageId()) {
        state.setCompletedStages(i, stage);
        persist(false);
        return;
      }
    }
    state.addCompletedStages(stage);
    persist(false);
  }

  @Override
  public void streamProgress(StreamProgress progress) {
    state.setStream(progress);
    persist(false);
  }

  /**
   * Changes that need not be on disk at once (task and stage completions) are gathered and written
   * together through {@code later}: a job of many short tasks must not serialize the whole journal
   * on the event loop once per task.
   *
   * @param later runs its task on the owning thread a little later
   */
  public void coalesceOn(java.util.function.Consumer<Runnable> later) {
    this.later = later;
  }

  /** The owning thread's timer, on which a failed write waits {@link #RETRY} before it is tried again. */
  public void retryOn(Scheduler timer) {
    this.timer = timer;
  }

  private void persist(boolean wait) {
    if (!wait) {
      if (!flushPending) {
        flushPending = true;
        later.accept(() -> {
          flushPending = false;
          write(false);
        });
      }
      return;
    }
    write(true);
  }

  private void write(boolean wait) {
    if (closed) {
      return;
    }
    byte[] bytes = state.setCompletedExecutorMs(completedExecutorMs.getAsLong()).build().toByteArray();
    long v;
    synchronized (writeLock) {
      v = ++version;
      latest = bytes;
    }
    Future<?> f;
    try {
      f = writer.submit(this::writeLatest);
    } catch (RejectedExecutionException closing) {
      return;
    }
    if (wait) {
      try {
        f.get(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (ExecutionException | TimeoutException e) {
        LOG.warn("The AM journal (version {}) may not be on disk: {}", v, e.toString());
      }
    }
  }

  /** Writes the newest state unless a later task already did. Writer thread. */
  private void writeLatest() {
    long v;
    byte[] bytes;
    synchronized (writeLock) {
      if (written >= version) {
        return;
      }
      v = version;
      bytes = latest;
    }
    try {
      files.replace(NAME, bytes);
      synchronized (writeLock) {
        written = Math.max(written, v);
      }
      if (warned) {
        LOG.info("The AM journal is written again");
        warned = false;
      }
    } catch (IOException e) {
      if (!warned) {
        LOG.warn("Could not write the AM journal ({}); a restarted AM would re-run more stages. Trying again every"
            + " {} ms", e.toString(), RETRY.toMillis());
        warned = true;
      }
      Scheduler t = timer;
      if (t != null && !closed && retryPending.compareAndSet(false, true)) {
        t.schedule(RETRY, () -> {
          retryPending.set(false);
          try {
            if (!closed) {
              writer.execute(this::writeLatest);
            }
          } catch (RejectedExecutionException closing) {
            // closed meanwhile: the staging directory goes next
          }
        });
      }
    }
  }

  /**
   * Ends the journal before the staging directory is removed: the writes already handed to the
   * writer finish, later changes (the last executors' completions) are not written, so nothing is
   * written into a directory that is gone. A second call does nothing more.
   */
  @Override
  public void close() {
    closed = true;
    writer.shutdown();
    try {
      writer.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
