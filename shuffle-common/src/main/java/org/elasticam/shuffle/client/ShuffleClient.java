package org.elasticam.shuffle.client;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.elasticam.shuffle.protocol.FetchRequest;
import org.elasticam.shuffle.protocol.QueryString;
import org.elasticam.shuffle.protocol.RegisterRequest;
import org.elasticam.shuffle.protocol.RemoveShuffleRequest;
import org.elasticam.shuffle.protocol.RequestSigner;
import org.elasticam.shuffle.protocol.ShuffleProtocol;
import org.elasticam.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One application's client of the NodeManagers' shuffle services: registers an executor's dirs and
 * fetches blocks. Requests are signed with the application's shuffle secret; at most
 * {@link ClientSettings#maxRequestsInFlight()} run at once (one thread and one connection each,
 * connections kept alive per service), and fetched bytes held by the caller are bounded by
 * {@link ClientSettings#maxBytesInFlight()}. Connection-level failures, 429 and 503 are retried
 * (a stale kept-alive connection once more, for free); every block is checked against its CRC32C.
 * Thread-safe.
 */
public final class ShuffleClient implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ShuffleClient.class);

  private final String appId;
  private final byte[] secret;
  private final ClientSettings settings;
  private final Clock clock;
  private final ConnectionPool pool;
  private final ByteBudget budget;
  private final ExecutorService threads;

  public ShuffleClient(String appId, byte[] secret, ClientSettings settings, Clock clock) {
    this.appId = appId;
    this.secret = secret.clone();
    this.settings = settings;
    this.clock = clock;
    this.pool = new ConnectionPool(settings, clock);
    this.budget = new ByteBudget(settings.maxBytesInFlight());
    AtomicInteger n = new AtomicInteger();
    this.threads = new ThreadPoolExecutor(settings.maxRequestsInFlight(), settings.maxRequestsInFlight(), 30,
        TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
          Thread t = new Thread(r, "shuffle-fetch-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    ((ThreadPoolExecutor) threads).allowCoreThreadTimeOut(true);
  }

  /**
   * Fetches one request's blocks; the request must be within the protocol's caps (see
   * {@link #fetchAll}). The future fails with a {@link FetchException}.
   */
  public CompletableFuture<FetchedBlocks> fetch(ServiceAddress a, FetchRequest r) {
    if (!r.appId().equals(appId)) {
      throw new IllegalArgumentException("this client fetches for " + appId + ", not " + r.appId());
    }
    if (r.split().size() != 1) {
      throw new IllegalArgumentException("request over the protocol's caps; use fetchAll: " + r.maps());
    }
    return CompletableFuture.supplyAsync(() -> {
      try {
        return withRetries("fetch of shuffle " + r.shuffleId(), a, () -> fetchOnce(a, r));
      } catch (IOException e) {
        throw new CompletionException(e);
      }
    }, threads);
  }

  /** Fetches a request of any size as several within the caps, in map order. */
  public List<CompletableFuture<FetchedBlocks>> fetchAll(ServiceAddress a, FetchRequest r) {
    List<CompletableFuture<FetchedBlocks>> out = new ArrayList<>();
    for (FetchRequest part : r.split()) {
      out.add(fetch(a, part));
    }
    return out;
  }

  /** Registers an executor's application-level local dirs with the service; blocks until answered. */
  public void register(ServiceAddress a, String executorId, List<Path> dirs) throws IOException {
    RegisterRequest r =
        new RegisterRequest(appId, executorId, dirs.stream().map(Path::toString).collect(Collectors.toList()));
    withRetries("registration of executor " + executorId, a, () -> {
      Map<String, String> params = r.params(clock.nowMs());
      return exchange(a, "POST", ShuffleProtocol.REGISTER_PATH, params, (c, head, len) -> {
        c.skip(len);
        return Boolean.TRUE;
      });
    });
  }

  /**
   * Asks the service to delete a shuffle's files of this application on its node; blocks until
   * answered. The service answers 200 whether or not there was anything to delete.
   */
  public void removeShuffle(ServiceAddress a, int shuffleId) throws IOException {
    RemoveShuffleRequest r = new RemoveShuffleRequest(appId, shuffleId);
    withRetries("removal of shuffle " + shuffleId, a, () -> {
      Map<String, String> params = r.params(clock.nowMs());
      return exchange(a, "POST", ShuffleProtocol.REMOVE_SHUFFLE_PATH, params, (c, head, len) -> {
        c.skip(len);
        return Boolean.TRUE;
      });
    });
  }

  /** Bytes of fetched responses not yet closed by the caller. */
  public long bytesInFlight() {
    return budget.used();
  }

  /** Idle kept-alive connections to {@code a}. */
  public int idleConnections(ServiceAddress a) {
    return pool.idleCount(a);
  }

  private FetchedBlocks fetchOnce(ServiceAddress a, FetchRequest r) throws IOException {
    return exchange(a, "GET", ShuffleProtocol.FETCH_PATH, r.params(clock.nowMs()), (c, head, len) -> {
      try {
        budget.acquire(len);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new FetchException("interrupted waiting for fetch memory", 0, false, null, e);
      }
      try {
        return new FetchedBlocks(BlockReader.read(c, r, len), len, () -> budget.release(len));
      } catch (IOException | RuntimeException e) {
        budget.release(len);
        throw e;
      }
    });
  }

  @FunctionalInterface
  private interface Attempt<T> {
    T run() throws IOException;
  }

  @FunctionalInterface
  private interface BodyReader<T> {
    T read(HttpConnection c, ResponseHead head, long contentLength) throws IOException;
  }

  private <T> T withRetries(String what, ServiceAddress a, Attempt<T> attempt) throws IOException {
    for (int failures = 0; ; failures++) {
      try {
        return attempt.run();
      } catch (FetchException e) {
        if (!e.retryable() || failures >= settings.maxRetries()) {
          throw e;
        }
        Duration wait = e.retryAfter() != null ? e.retryAfter() : settings.retryWait();
        LOG.info("The {} from {} failed ({}); retry {} of {} in {} ms", what, a, e.getMessage(), failures + 1,
            settings.maxRetries(), wait.toMillis());
        pause(clock, wait);
      }
    }
  }

  /**
   * Sends one signed request and reads the response. A kept-alive connection that fails before any
   * response byte was probably closed idle by the service: that is retried at once on a new one.
   */
  private <T> T exchange(ServiceAddress a, String method, String path, Map<String, String> params, BodyReader<T> body)
      throws IOException {
    String target = path + "?" + QueryString.format(params);
    String signature = RequestSigner.sign(secret, method, path, params);
    for (int attempt = 0; ; attempt++) {
      HttpConnection c;
      try {
        c = pool.take(a);
      } catch (IOException e) {
        throw FetchException.connection("cannot connect to " + a + ": " + e, e);
      }
      boolean started = false;
      boolean returned = false;
      try {
        c.send(method, target, signature);
        ResponseHead head = c.readHead();
        started = true;
        long len = head.contentLength();
        if (len < 0) {
          throw new FetchException(a + " answered " + head.status() + " without Content-Length", head.status(), false,
              null, null);
        }
        if (head.status() != 200) {
          String text = readText(c, len);
          returned = finish(c, head);
          throw statusError(a, head, text);
        }
        T result = body.read(c, head, len);
        returned = finish(c, head);
        return result;
      } catch (FetchException e) {
        throw e;
      } catch (IOException e) {
        if (!started && c.reused() && attempt == 0) {
          continue;
        }
        throw FetchException.connection("connection to " + a + " failed: " + e, e);
      } finally {
        if (!returned) {
          c.close();
        }
      }
    }
  }

  /** Gives the connection back when the service keeps it alive; true when it did. */
  private boolean finish(HttpConnection c, ResponseHead head) {
    if (head.keepAlive()) {
      pool.giveBack(c);
      return true;
    }
    return false;
  }

  private static String readText(HttpConnection c, long len) throws IOException {
    byte[] b = new byte[(int) Math.min(len, 4096)];
    c.readFully(b, 0, b.length);
    c.skip(len - b.length);
    return new String(b, java.nio.charset.StandardCharsets.UTF_8).trim();
  }

  private static FetchException statusError(ServiceAddress a, ResponseHead head, String text) {
    int s = head.status();
    boolean retryable = s == 429 || s == 503;
    return new FetchException(a + " answered " + s + ": " + text, s, retryable, head.retryAfter(), null);
  }

  private static void pause(Clock clock, Duration d) throws FetchException {
    try {
      clock.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FetchException("interrupted while waiting to retry", 0, false, null, e);
    }
  }

  @Override
  public void close() {
    threads.shutdownNow();
    pool.close();
  }
}
