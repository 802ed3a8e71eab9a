package org.elasticam.am.events;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.elasticam.conf.ElasticConf;
import org.elasticam.conf.ExecutorKeys;
import org.elasticam.report.events.Event;
import org.elasticam.report.events.EventFields;
import org.elasticam.report.events.EventWriter;
import org.elasticam.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The machine-readable record of a run (DESIGN §3): one JSON object per line, each with {@code ts}
 * and {@code event}. Each line is flushed ({@code hflush} on HDFS) by a writer thread of its own as
 * soon as it is handed over, with whatever other lines arrived while the last flush ran, so a crash
 * loses only the lines of the last few milliseconds. Not on the event loop: an hflush waits for the
 * datanodes' acknowledgement, about 0.7 ms a line with a datanode on the same host, and two lines a
 * task made a stage of short tasks 1.5 times as long with the log on HDFS. Writing is best-effort:
 * a failing event log is logged once and never fails the application. {@link #write} and
 * {@link #retainedLines} are for the event-loop thread only.
 */
public final class EventLog implements EventWriter, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EventLog.class);
  /** About 20 MiB of lines at most: a run with hundreds of thousands of tasks keeps its first. */
  public static final int RETAINED_LINES = 100_000;
  private static final ObjectMapper JSON = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

  /**
   * HDFS's client refuses to go on writing a block whose pipeline has fewer datanodes than the
   * file's replication when it cannot add one (policy DEFAULT, for appended and flushed blocks).
   * On a cluster with fewer live datanodes than that, every append of a later attempt failed so,
   * and the log was abandoned at its first line. A log on fewer replicas beats a lost one.
   */
  static final String KEEP_WRITING_ON_FEWER_REPLICAS = "dfs.client.block.write.replace-datanode-on-failure.best-effort";

  /**
   * Lines handed to the writer and not yet written, at most: a file system slower than the event
   * loop holds the loop back here, as a synchronous write did, rather than filling the heap.
   */
  static final int PENDING_LINES = 10_000;
  /** How long closing the log waits for its last lines to be written. */
  static final long DRAIN_MS = 60_000;

  private final Path path;
  private final OutputStream out;
  /** The file system opened for this log alone, closed with it; null when it writes through a shared one. */
  private final FileSystem own;
  private final Clock clock;
  private final List<String> retained = new ArrayList<>();
  /** Null for a log that writes nowhere. */
  private final LineWriter writer;

  private EventLog(Path path, OutputStream out, FileSystem own, Clock clock) {
    this.path = path;
    this.out = out;
    this.own = own;
    this.clock = clock;
    this.writer = path == null ? null : new LineWriter(path, out);
  }

  /** A log that writes to {@code out}, for tests of the writing itself. */
  static EventLog writingTo(OutputStream out, Clock clock) {
    return new EventLog(new Path("file:/test.jsonl"), out, null, clock);
  }

  /**
   * The directory of an application's event log, qualified: {@code elasticam.eventLog.dir} on its
   * own file system (a {@code file:} or {@code s3a:} directory is not on fs.defaultFS, and
   * qualifying it there failed the AM), or {@code .elasticam/events} under the home directory on
   * fs.defaultFS. The AM writes there and the client reads there.
   */
  public static Path dir(Configuration conf, ElasticConf elastic) throws IOException {
    String set = elastic.getOptional(ExecutorKeys.EVENT_LOG_DIR).orElse(null);
    if (set != null) {
      Path dir = new Path(set);
      return dir.getFileSystem(conf).makeQualified(dir);
    }
    FileSystem fs = FileSystem.get(conf);
    return fs.makeQualified(new Path(fs.getHomeDirectory(), ".elasticam/events"));
  }

  /** Creates {@code <dir>/<applicationId>.jsonl}; on the local file system, without checksum files. */
  public static EventLog create(FileSystem fs, Path dir, String applicationId, Clock clock) throws IOException {
    FileSystem target = writer(fs);
    try {
      return create(fs, target, dir, applicationId, clock);
    } catch (IOException | RuntimeException e) {
      closeOwn(fs, target);
      throw e;
    }
  }

  private static EventLog create(FileSystem given, FileSystem target, Path dir, String applicationId, Clock clock)
      throws IOException {
    Path qualified = target.makeQualified(dir);
    target.mkdirs(qualified, new FsPermission((short) 0750));
    Path file = new Path(qualified, applicationId + ".jsonl");
    return new EventLog(file, target.create(file, false), owned(given, target), clock);
  }

  /**
   * Where the log is written: the raw local file system (no checksum files), or a client of the
   * log's own that keeps writing when a replica is lost and none can replace it.
   */
  private static FileSystem writer(FileSystem fs) throws IOException {
    if (fs instanceof LocalFileSystem local) {
      return local.getRawFileSystem();
    }
    if (fs.getConf().getBoolean(KEEP_WRITING_ON_FEWER_REPLICAS, false)) {
      return fs;
    }
    org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration(fs.getConf());
    conf.setBoolean(KEEP_WRITING_ON_FEWER_REPLICAS, true);
    return FileSystem.newInstance(fs.getUri(), conf);
  }

  private static FileSystem owned(FileSystem given, FileSystem target) {
    return target == given || given instanceof LocalFileSystem ? null : target;
  }

  private static void closeOwn(FileSystem given, FileSystem target) {
    closeFileSystem(owned(given, target));
  }

  private static void closeFileSystem(FileSystem own) {
    if (own != null) {
      try {
        own.close();
      } catch (IOException e) {
        LOG.debug("Closing the event log's file system failed", e);
      }
    }
  }

  /**
   * A later attempt of the AM goes on writing the application's one log. A line the earlier attempt
   * was killed in the middle of is ended first, so it stays one malformed line that readers skip,
   * and the next event starts a line of its own.
   */
  public static EventLog continueOrCreate(FileSystem fs, Path dir, String applicationId, Clock clock)
      throws IOException {
    FileSystem target = writer(fs);
    try {
      Path file = new Path(target.makeQualified(dir), applicationId + ".jsonl");
      if (!target.exists(file)) {
        return create(fs, target, dir, applicationId, clock);
      }
      takeOverLease(target, file, clock);
      long len = target.getFileStatus(file).getLen();
      boolean partial = false;
      if (len > 0) {
        try (org.apache.hadoop.fs.FSDataInputStream in = target.open(file)) {
          in.seek(len - 1);
          partial = in.read() != '\n';
        }
      }
      OutputStream out = target.append(file);
      if (partial) {
        out.write('\n');
      }
      return new EventLog(file, out, owned(fs, target), clock);
    } catch (IOException | RuntimeException e) {
      closeOwn(fs, target);
      throw e;
    }
  }

  /**
   * An earlier attempt killed while writing still holds the file's lease on HDFS, which lets it go
   * only after a minute; until then an append fails (AlreadyBeingCreatedException). Recovers the
   * lease now and waits, at most 30 s, until the file is closed. A file system without leases has
   * nothing to recover.
   *
   * <p>By reflection: HDFS's {@code recoverLease} and {@code isFileClosed} are methods of its file
   * system classes in every Hadoop 3, but the interface that names them, {@code LeaseRecoverable},
   * exists only from 3.3.6, and an AM that refers to it cannot load on an older cluster.
   */
  private static void takeOverLease(FileSystem fs, Path file, Clock clock) throws IOException {
    java.lang.reflect.Method recover;
    java.lang.reflect.Method closedYet;
    try {
      recover = fs.getClass().getMethod("recoverLease", Path.class);
      closedYet = fs.getClass().getMethod("isFileClosed", Path.class);
    } catch (NoSuchMethodException e) {
      return;
    }
    long deadline = clock.nowMs() + 30_000;
    boolean closed = (Boolean) invoke(recover, fs, file);
    while (!closed && clock.nowMs() < deadline) {
      try {
        clock.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted while recovering the lease of " + file);
      }
      closed = (Boolean) invoke(closedYet, fs, file);
    }
    LOG.info("Took over the event log {} from the earlier attempt (closed: {})", file, closed);
  }

  private static Object invoke(java.lang.reflect.Method m, FileSystem fs, Path file) throws IOException {
    try {
      return m.invoke(fs, file);
    } catch (java.lang.reflect.InvocationTargetException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    } catch (IllegalAccessException e) {
      throw new IOException("cannot call " + m.getName() + " on " + fs.getClass().getName(), e);
    }
  }

  /** A log that writes nowhere, when none could be opened. */
  public static EventLog discarding(Clock clock) {
    return new EventLog(null, OutputStream.nullOutputStream(), null, clock);
  }

  public Path path() {
    return path;
  }

  /**
   * The lines written so far, for the AM's live page and API (the file may be on HDFS and is not
   * read back). At most {@link #RETAINED_LINES}: a run that writes more keeps its first ones, and
   * the page says the figures stop there.
   */
  public List<String> retainedLines() {
    return List.copyOf(retained);
  }

  /** Whether lines were written that {@link #retainedLines} no longer holds. */
  public boolean retentionFull() {
    return retained.size() >= RETAINED_LINES;
  }

  /** Writes one event; {@code kv} alternates field names (from {@link EventFields}) and values. */
  @Override
  public void write(Event event, Object... kv) {
    writeLine(event.line(clock.nowMs(), kv));
  }

  private void writeLine(Map<String, Object> m) {
    String text;
    try {
      text = JSON.writeValueAsString(m);
    } catch (IOException e) {
      LOG.warn("An event could not be serialized: {}", e.toString());
      return;
    }
    if (retained.size() < RETAINED_LINES) {
      retained.add(text);
    }
    if (writer != null) {
      writer.hand((text + "\n").getBytes(StandardCharsets.UTF_8));
    }
  }

  /**
   * Waits, at most {@code timeoutMs}, until every line written so far is flushed: before the AM
   * unregisters, so that a client that sees the application finished reads its {@code app_end}.
   *
   * @return whether they were, or the log is broken or writes nowhere
   */
  public boolean awaitFlushed(long timeoutMs) throws InterruptedException {
    return writer == null || writer.awaitFlushed(timeoutMs);
  }

  @Override
  public void close() {
    if (writer != null && !writer.stop(DRAIN_MS)) {
      // Closing the stream under a write still blocked would race it; the file system's close below
      // ends the stream anyway.
      LOG.warn("The event log {} was not written within {} ms of closing; its last lines are lost", path, DRAIN_MS);
      closeFileSystem(own);
      return;
    }
    try {
      out.close();
    } catch (IOException e) {
      LOG.warn("Closing the event log {} failed: {}", path, e.toString());
    }
    closeFileSystem(own);
  }

  /**
   * The thread that writes and flushes the lines, in the order handed over. Each turn writes every
   * line waiting and flushes once: the lines that arrived while a flush ran share the next.
   */
  private static final class LineWriter implements Runnable {

    private static final byte[] END = new byte[0];

    private final Path path;
    private final OutputStream out;
    private final java.util.concurrent.BlockingQueue<byte[]> pending =
        new java.util.concurrent.LinkedBlockingQueue<>(PENDING_LINES);
    private final Thread thread;
    /** Lines handed over, and lines written and flushed (or dropped once the log broke); under {@code lock}. */
    private final java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();
    private final java.util.concurrent.locks.Condition progressed = lock.newCondition();
    private long handed;
    private long done;
    private volatile boolean broken;
    /** Set when the log is closed: a line written after that is dropped, not left in the queue. */
    private volatile boolean stopping;

    LineWriter(Path path, OutputStream out) {
      this.path = path;
      this.out = out;
      this.thread = new Thread(this, "event-log-writer");
      thread.setDaemon(true);
      thread.start();
    }

    void hand(byte[] line) {
      if (broken || stopping) {
        return;
      }
      count(1, 0);
      try {
        pending.put(line);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        LOG.warn("Interrupted handing a line to the event log {}; the line is lost", path);
        count(0, 1);
      }
    }

    private void count(long moreHanded, long moreDone) {
      lock.lock();
      try {
        handed += moreHanded;
        done += moreDone;
        progressed.signalAll();
      } finally {
        lock.unlock();
      }
    }

    /** A bounded wait for the writer's progress, not a decision: it reads no time of its own. */
    boolean awaitFlushed(long timeoutMs) throws InterruptedException {
      lock.lock();
      try {
        long target = handed;
        long left = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (done < target && !broken) {
          if (left <= 0) {
            return false;
          }
          left = progressed.awaitNanos(left);
        }
        return true;
      } finally {
        lock.unlock();
      }
    }

    boolean stop(long timeoutMs) {
      stopping = true;
      try {
        if (!pending.offer(END, timeoutMs, java.util.concurrent.TimeUnit.MILLISECONDS)) {
          return false;
        }
        thread.join(timeoutMs);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
      return !thread.isAlive();
    }

    @Override
    public void run() {
      List<byte[]> batch = new ArrayList<>();
      boolean ended = false;
      try {
        while (true) {
          batch.add(pending.take());
          pending.drainTo(batch);
          boolean end = false;
          int lines = 0;
          for (byte[] line : batch) {
            if (line == END) {
              end = true;
              break;
            }
            lines++;
            write(line);
          }
          flush();
          count(0, lines);
          batch.clear();
          if (end) {
            ended = true;
            return;
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        if (!ended) {
          // Whatever stopped the writer, the loop must not wait on a queue nobody drains.
          broken = true;
          pending.clear();
          count(0, 0);
        }
      }
    }

    private void write(byte[] line) {
      if (broken) {
        return;
      }
      try {
        out.write(line);
      } catch (IOException | RuntimeException e) {
        broke(e);
      }
    }

    private void flush() {
      if (broken) {
        return;
      }
      try {
        if (out instanceof FSDataOutputStream fs) {
          fs.hflush();
        } else {
          out.flush();
        }
      } catch (IOException | RuntimeException e) {
        broke(e);
      }
    }

    private void broke(Exception e) {
      broken = true;
      LOG.error("The event log {} could not be written and is abandoned: {}", path, e.toString());
      count(0, 0);
    }
  }
}
