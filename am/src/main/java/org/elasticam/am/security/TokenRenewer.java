package org.elasticam.am.security;

import java.io.IOException;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.apache.hadoop.security.token.delegation.AbstractDelegationTokenIdentifier;
import org.elasticam.am.security.TokenRefreshSchedule.TokenLife;
import org.elasticam.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An AM that was given a keytab obtains the application's delegation tokens itself, at start (so a
 * new attempt never works with tokens that expired while the application ran) and again before
 * they expire, for as long as the application runs. Each new set goes to {@code onFresh}, which
 * hands it to the AM's own clients, to executors launched from now on and to live ones.
 *
 * <p>The tokens name the keytab's user as renewer, so that renewing each once, at once, tells when
 * it expires; {@link TokenRefreshSchedule} picks the time of the next set from that. Obtaining runs
 * on a thread of its own: it talks to the KDC and NameNodes and must not hold up the event loop.
 */
public final class TokenRenewer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(TokenRenewer.class);
  /** After a failed attempt to obtain tokens: try again this soon; the old ones still work meanwhile. */
  static final long RETRY_MS = 60_000;

  private final Configuration conf;
  private final UserGroupInformation keytabUser;
  private final Set<URI> filesystems;
  private final double fraction;
  private final Clock clock;
  private final Consumer<Credentials> onFresh;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "token-renewer");
    t.setDaemon(true);
    return t;
  });

  public TokenRenewer(Configuration conf, UserGroupInformation keytabUser, Set<URI> filesystems, double fraction,
      Clock clock, Consumer<Credentials> onFresh) {
    this.conf = conf;
    this.keytabUser = keytabUser;
    this.filesystems = Set.copyOf(filesystems);
    this.fraction = fraction;
    this.clock = clock;
    this.onFresh = onFresh;
  }

  /**
   * Obtains the first set now and schedules the next.
   *
   * @throws IOException when the first set cannot be obtained: the AM cannot work without it
   */
  public Credentials start() throws IOException {
    Credentials first = obtainAndSchedule();
    onFresh.accept(first);
    return first;
  }

  private void refresh() {
    try {
      onFresh.accept(obtainAndSchedule());
    } catch (IOException | RuntimeException e) {
      LOG.warn("Could not obtain new delegation tokens, trying again in {} s (the current ones still work"
          + " until they expire): {}", RETRY_MS / 1000, DelegationTokenFetch.firstLine(e));
      schedule(clock.nowMs() + RETRY_MS);
    }
  }

  private Credentials obtainAndSchedule() throws IOException {
    keytabUser.checkTGTAndReloginFromKeytab();
    Credentials fresh = as(() -> DelegationTokenFetch.obtain(conf, filesystems, keytabUser.getShortUserName()));
    long now = clock.nowMs();
    OptionalLong next = TokenRefreshSchedule.nextRefreshMs(now, lives(fresh), fraction);
    if (next.isPresent()) {
      schedule(next.getAsLong());
    }
    LOG.info("Obtained {} delegation token(s) for {} as {}; the next in {} s{}", fresh.numberOfTokens(), filesystems,
        keytabUser.getUserName(), next.isPresent() ? (next.getAsLong() - now) / 1000 : "-",
        next.isPresent() ? " (at " + Instant.ofEpochMilli(next.getAsLong()) + ")" : ": no token says when it expires");
    return fresh;
  }

  /** Each token's life: issued when it says, expiring when renewing it says, never past its maximum. */
  private List<TokenLife> lives(Credentials creds) {
    List<TokenLife> out = new ArrayList<>();
    for (DelegationTokens held : DelegationTokens.in(creds)) {
      Token<? extends TokenIdentifier> t = held.token();
      AbstractDelegationTokenIdentifier d = held.id();
      long max = d.getMaxDate() > 0 ? d.getMaxDate() : Long.MAX_VALUE;
      long expires;
      try {
        expires = Math.min(max, as(() -> t.renew(conf)));
      } catch (IOException | RuntimeException e) {
        LOG.debug("Cannot renew {} to learn when it expires; taking its maximum lifetime: {}", t.getKind(), e.toString());
        expires = max;
      }
      if (expires != Long.MAX_VALUE) {
        out.add(new TokenLife(Math.min(d.getIssueDate(), expires), expires));
      }
    }
    return out;
  }

  private void schedule(long atMs) {
    timer.schedule(this::refresh, Math.max(0, atMs - clock.nowMs()), TimeUnit.MILLISECONDS);
  }

  private <T> T as(PrivilegedExceptionAction<T> action) throws IOException {
    try {
      return keytabUser.doAs(action);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while obtaining delegation tokens", e);
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
