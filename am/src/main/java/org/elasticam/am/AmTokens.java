package org.elasticam.am;

import static org.elasticam.report.events.EventFields.TOKENS;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;
import org.elasticam.am.events.EventLog;
import org.elasticam.am.loop.AmLoop;
import org.elasticam.am.security.DelegationTokenFetch;
import org.elasticam.am.security.TokenRenewer;
import org.elasticam.conf.ElasticConf;
import org.elasticam.conf.YarnKeys;
import org.elasticam.launcher.ExecutorLauncher;
import org.elasticam.report.events.Event;
import org.elasticam.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The application's credentials over the AM's life: on a secure cluster with a keytab, delegation
 * tokens obtained afresh at start and again before they expire, taken into the AM's own user and
 * passed on to executors (new ones in their launch context, live ones over the control plane).
 */
final class AmTokens {

  private static final Logger LOG = LoggerFactory.getLogger(AmTokens.class);

  private final Configuration conf;
  private final ElasticConf elastic;
  private final Clock clock;
  /** The keytab's user on a secure cluster; null without a keytab. */
  private UserGroupInformation keytabUser;
  /** The tokens the keytab login obtained at start; null without a keytab. */
  private Credentials startTokens;
  /** Where renewed tokens go besides the AM's own clients; set once executors can be launched. */
  private volatile Consumer<Credentials> renewedTokensSink = fresh -> { };

  AmTokens(Configuration conf, ElasticConf elastic, Clock clock) {
    this.conf = conf;
    this.elastic = elastic;
    this.clock = clock;
  }

  /**
   * With a keytab on a secure cluster: the application's delegation tokens obtained afresh now, and
   * again before they expire, for as long as it runs. Null otherwise.
   */
  TokenRenewer start() throws IOException {
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
        elastic.get(YarnKeys.TOKEN_RENEWAL_FRACTION), clock, this::renewed);
    startTokens = renewer.start();
    return renewer;
  }

  /** The set obtained at start, before the event log existed, for the log; null without a keytab. */
  Credentials startTokens() {
    return startTokens;
  }

  /**
   * Who may call the ResourceManager's client protocol (node reports): anyone without security;
   * with it, only a Kerberos user, so the keytab's; nobody without a keytab.
   */
  Optional<UserGroupInformation> resourceManagerUser() throws IOException {
    if (!UserGroupInformation.isSecurityEnabled()) {
      return Optional.of(UserGroupInformation.getCurrentUser());
    }
    return Optional.ofNullable(keytabUser);
  }

  /** From now on renewed tokens also reach executors: launched later through {@code launcher}, live ones through the driver. */
  void passOnTo(ExecutorLauncher launcher, AmLoop loop, DriverHolder holder, EventLog events) {
    renewedTokensSink = fresh -> {
      try {
        launcher.updateTokens(executorTokens());
        DataOutputBuffer buf = new DataOutputBuffer();
        fresh.writeTokenStorageToStream(buf);
        com.google.protobuf.ByteString tokens = com.google.protobuf.ByteString.copyFrom(buf.getData(), 0,
            buf.getLength());
        loop.execute(() -> {
          holder.updateCredentials(tokens);
          events.write(Event.TOKENS_RENEWED, TOKENS, fresh.numberOfTokens());
        });
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    };
  }

  /** On the renewer's thread: the AM's own clients take the new tokens at once. */
  private void renewed(Credentials fresh) {
    try {
      UserGroupInformation.getCurrentUser().addCredentials(fresh);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    renewedTokensSink.accept(fresh);
  }

  /** The application's credentials as executors get them: everything but the AMRMToken. */
  static ByteBuffer executorTokens() throws IOException {
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
}
