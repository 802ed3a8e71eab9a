package org.elasticam.am.client;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.client.util.YarnClientUtils;
import org.elasticam.am.security.DelegationTokenFetch;
import org.elasticam.am.security.DelegationTokens;
import org.elasticam.conf.ElasticConf;
import org.elasticam.conf.YarnKeys;

/**
 * Who submits on a secure cluster, and the delegation tokens the application takes with it. On a
 * cluster without Kerberos ({@code hadoop.security.authentication=simple}) it does nothing.
 *
 * <p>The tokens name the ResourceManager as renewer, so YARN renews them for the application's
 * life up to their maximum lifetime; with a keytab the AM obtains new ones before then.
 */
public final class SecureLogin {

  private SecureLogin() {}

  /**
   * The user to submit as: logged in from the keytab when {@code elasticam.yarn.principal} and
   * {@code …keytab} are set, without replacing the process's login user (a launcher that embeds the
   * client keeps its own); otherwise the current user, who must hold a Kerberos ticket (kinit) or
   * delegation tokens already (a workflow launcher's). The current user when security is off.
   *
   * @throws UsageException when there is no way to authenticate, with what to do about it
   */
  public static UserGroupInformation login(ElasticConf elastic) throws UsageException {
    // A keytab named by mistake is a mistake on any cluster, secure or not.
    Optional<String> keytabName = elastic.getOptional(YarnKeys.KEYTAB).filter(s -> !s.isBlank());
    if (keytabName.isPresent() && !Files.isReadable(Path.of(keytabName.get()))) {
      throw new UsageException("the keytab " + keytabName.get() + " (--keytab, elasticam.yarn.keytab) does not exist"
          + " or cannot be read");
    }
    if (!UserGroupInformation.isSecurityEnabled()) {
      return currentUser();
    }
    Optional<String> principal = elastic.getOptional(YarnKeys.PRINCIPAL).filter(s -> !s.isBlank());
    if (principal.isPresent()) {
      Path keytab = Path.of(elastic.get(YarnKeys.KEYTAB));
      try {
        return UserGroupInformation.loginUserFromKeytabAndReturnUGI(principal.get(), keytab.toString());
      } catch (IOException e) {
        throw new UsageException("cannot log in as " + principal.get() + " from the keytab " + keytab + ": "
            + firstLine(e));
      }
    }
    UserGroupInformation user = currentUser();
    if (!user.hasKerberosCredentials() && user.getCredentials().numberOfTokens() == 0) {
      throw new UsageException("no Kerberos ticket for " + user.getShortUserName() + " on this secure cluster:"
          + " run kinit, or submit with --principal P --keytab K");
    }
    return user;
  }

  private static UserGroupInformation currentUser() throws UsageException {
    try {
      return UserGroupInformation.getCurrentUser();
    } catch (IOException e) {
      throw new UsageException("cannot log in: " + firstLine(e));
    }
  }

  /**
   * Runs {@code action} as {@code user}, so every client it makes (file systems, the YARN client)
   * authenticates as that user; what it throws comes out as thrown, not wrapped.
   */
  public static <T> T runAs(UserGroupInformation user, java.util.concurrent.Callable<T> action) throws Exception {
    try {
      return user.doAs((java.security.PrivilegedExceptionAction<T>) action::call);
    } catch (java.lang.reflect.UndeclaredThrowableException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
  }

  /**
   * Delegation tokens for {@code fs.defaultFS} and every file system in {@code
   * elasticam.yarn.access.hadoopFileSystems}, renewable by the ResourceManager. Empty when security
   * is off.
   */
  public static Credentials delegationTokens(Configuration conf, ElasticConf elastic) throws IOException {
    if (!UserGroupInformation.isSecurityEnabled()) {
      return new Credentials();
    }
    return DelegationTokenFetch.obtain(conf, DelegationTokenFetch.filesystems(conf, elastic),
        YarnClientUtils.getRmPrincipal(conf));
  }

  /**
   * When the first of these tokens reaches its maximum lifetime, past which no renewal helps: how
   * long an application can run without a keytab. Empty when no token says.
   */
  public static Optional<Instant> tokensEndOfLife(Credentials creds) {
    Optional<Instant> first = Optional.empty();
    for (DelegationTokens t : DelegationTokens.in(creds)) {
      if (t.id().getMaxDate() > 0) {
        Instant end = Instant.ofEpochMilli(t.id().getMaxDate());
        if (first.isEmpty() || end.isBefore(first.get())) {
          first = Optional.of(end);
        }
      }
    }
    return first;
  }

  private static String firstLine(Throwable e) {
    String m = e.getMessage();
    return (m == null || m.isBlank() ? e.getClass().getSimpleName() : m).lines().findFirst().orElse("");
  }
}
