package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.elasticam.am.client.ElasticamCli;
import org.elasticam.am.client.SecureLogin;
import org.elasticam.am.client.UsageException;
import org.elasticam.am.security.TokenRenewer;
import org.elasticam.conf.ElasticConf;
import org.elasticam.time.Clock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Submission on a secure cluster, the client's half: a real KDC ({@code MiniKdc}, in this JVM) and
 * a Kerberized HDFS ({@code MiniDFSCluster} with block access tokens and SASL data transfer). The
 * client logs in from a keytab, obtains an HDFS delegation token the ResourceManager may renew, and
 * that token alone (no Kerberos credentials, as in a container) reads the job's input. Without a
 * ticket the client refuses with one line before contacting anything.
 *
 * <p>Runs in a JVM of its own (the {@code own-jvm} failsafe execution in this module's POM): Hadoop's
 * login state is global to a JVM.
 */
@Timeout(300)
class SecureSubmissionIT {

  private static SecureHdfs secure;
  private static File keytab;
  private static String realm;
  private static Configuration conf;
  private static final long TOKEN_RENEW_INTERVAL_MS = 15_000;
  private static final long TOKEN_MAX_LIFETIME_MS = 60_000;
  private static final org.apache.hadoop.fs.Path INPUT = new org.apache.hadoop.fs.Path("/user/alice/input.txt");

  @BeforeAll
  static void start() throws Exception {
    // Short token lives, so that renewal can be seen within a test: unrenewed after 15 s, gone after 60 s.
    secure = SecureHdfs.start("secure-it", Duration.ofMillis(TOKEN_RENEW_INTERVAL_MS),
        Duration.ofMillis(TOKEN_MAX_LIFETIME_MS), "rm/localhost");
    realm = secure.realm();
    keytab = secure.keytab();
    FileSystem fs = secure.fileSystem();
    try (FSDataOutputStream out = fs.create(INPUT)) {
      out.write("to be or not to be\n".getBytes(StandardCharsets.UTF_8));
    }
    fs.setOwner(INPUT, "alice", "alice");
    fs.setPermission(INPUT, new FsPermission((short) 0600));
    conf = secure.conf();
  }

  @AfterAll
  static void stop() {
    if (secure != null) {
      secure.close();
    }
  }

  @Test
  void aKeytabLoginObtainsATokenTheResourceManagerRenewsAndThatAloneReadsTheInput() throws Exception {
    ElasticConf elastic = ElasticConf.of(Map.of("elasticam.yarn.principal", "alice@" + realm,
        "elasticam.yarn.keytab", keytab.getAbsolutePath()));
    UserGroupInformation alice = SecureLogin.login(elastic);
    assertEquals("alice", alice.getShortUserName());
    assertTrue(alice.hasKerberosCredentials());
    assertEquals("hdfs", UserGroupInformation.getLoginUser().getShortUserName(),
        "the process's login user (here the NameNode's) is left alone");

    Credentials tokens = alice.doAs((PrivilegedExceptionAction<Credentials>) () ->
        SecureLogin.delegationTokens(conf, elastic));
    assertEquals(1, tokens.numberOfTokens(), "one token, for fs.defaultFS");
    Token<?> t = tokens.getAllTokens().iterator().next();
    assertEquals(DelegationTokenIdentifier.HDFS_DELEGATION_KIND, t.getKind());
    DelegationTokenIdentifier id = (DelegationTokenIdentifier) t.decodeIdentifier();
    assertEquals("alice@" + realm, id.getOwner().toString(), "HDFS records the owner's whole principal");
    assertEquals("rm", id.getRenewer().toString(), "the ResourceManager may renew it");
    Instant end = SecureLogin.tokensEndOfLife(tokens).orElseThrow();
    Duration left = Duration.between(Instant.now(), end);
    assertTrue(left.compareTo(Duration.ZERO) > 0 && left.toMillis() <= TOKEN_MAX_LIFETIME_MS,
        "the NameNode's maximum lifetime: " + left);

    // A container's view: the token, no Kerberos credentials.
    UserGroupInformation container = UserGroupInformation.createRemoteUser("alice");
    container.addCredentials(tokens);
    assertFalse(container.hasKerberosCredentials());
    String read = container.doAs((PrivilegedExceptionAction<String>) () -> {
      FileSystem fs = FileSystem.newInstance(conf);
      try (var in = fs.open(INPUT)) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } finally {
        fs.close();
      }
    });
    assertEquals("to be or not to be\n", read);
  }

  @Test
  void withAKeytabNewTokensArriveBeforeTheOldOnesExpireAndAnExecutorHoldingOnlyThoseReadsOn() throws Exception {
    UserGroupInformation alice = SecureLogin.login(ElasticConf.of(Map.of("elasticam.yarn.principal", "alice@" + realm,
        "elasticam.yarn.keytab", keytab.getAbsolutePath())));
    // An executor's view: no Kerberos credentials, only the tokens the AM hands it.
    UserGroupInformation executor = UserGroupInformation.createRemoteUser("alice");
    List<Credentials> received = new java.util.concurrent.CopyOnWriteArrayList<>();
    try (TokenRenewer renewer = new TokenRenewer(conf, alice, Set.of(FileSystem.getDefaultUri(conf)), 0.5,
        Clock.system(), fresh -> {
          received.add(fresh);
          executor.addCredentials(fresh);
        })) {
      renewer.start();
      UserGroupInformation firstOnly = UserGroupInformation.createRemoteUser("alice");
      firstOnly.addCredentials(received.get(0));
      long start = System.currentTimeMillis();
      assertEquals("to be or not to be\n", read(executor));

      // Past the first token's renewal deadline: it alone no longer reads, the executor still does.
      Thread.sleep(TOKEN_RENEW_INTERVAL_MS + 5_000 - (System.currentTimeMillis() - start));
      Exception expired = assertThrows(Exception.class, () -> read(firstOnly));
      assertTrue(String.valueOf(expired.getMessage()).contains("expired")
          || String.valueOf(expired.getCause()).contains("expired"), "the first token expired: " + expired);
      assertEquals("to be or not to be\n", read(executor));
      assertTrue(received.size() >= 2, "renewed before the first expired: " + received.size() + " set(s)");
      System.out.printf("token renewal: %d token set(s) in %.1f s; the first token alone refused after %.1f s;"
          + " the executor read on with the renewed ones%n", received.size(),
          (System.currentTimeMillis() - start) / 1000.0, (System.currentTimeMillis() - start) / 1000.0);
    }
  }

  private static String read(UserGroupInformation user) throws Exception {
    return user.doAs((PrivilegedExceptionAction<String>) () -> {
      FileSystem fs = FileSystem.newInstance(conf);
      try (var in = fs.open(INPUT)) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } finally {
        fs.close();
      }
    });
  }

  @Test
  void withoutATicketTheClientRefusesWithOneLineAndSubmitsNothing() throws Exception {
    UserGroupInformation bob = UserGroupInformation.createRemoteUser("bob");
    UsageException e = assertThrows(UsageException.class,
        () -> SecureLogin.runAs(bob, () -> SecureLogin.login(ElasticConf.of(Map.of()))));
    assertEquals("no Kerberos ticket for bob on this secure cluster: run kinit, or submit with --principal P"
        + " --keytab K", e.getMessage());

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = bob.doAs((PrivilegedExceptionAction<Integer>) () -> new ElasticamCli(new Configuration(conf),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
        ItCluster.appJar()).run(new String[] {"submit", "sleep"}));
    assertEquals(2, code);
    assertEquals("elasticam: " + e.getMessage() + "\n", err.toString(StandardCharsets.UTF_8));
    assertEquals("", out.toString(StandardCharsets.UTF_8));
  }

  /**
   * With a keytab, the client's own checks run as its user: here a job jar on HDFS that only alice
   * may read, submitted by a process with no Kerberos ticket of its own (a dry run: everything is
   * checked, nothing submitted).
   */
  @Test
  void withAKeytabTheClientsChecksReadHdfsAsItsUser() throws Exception {
    org.apache.hadoop.fs.Path jar = new org.apache.hadoop.fs.Path("/user/alice/examples.jar");
    FileSystem fs = secure.fileSystem();
    fs.copyFromLocalFile(new org.apache.hadoop.fs.Path(ExamplesIT.examplesJar().toUri()), jar);
    fs.setOwner(jar, "alice", "alice");
    fs.setPermission(jar, new FsPermission((short) 0600));
    String hdfs = "hdfs://" + fs.getUri().getAuthority();
    UserGroupInformation bob = UserGroupInformation.createRemoteUser("bob");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = bob.doAs((PrivilegedExceptionAction<Integer>) () -> new ElasticamCli(new Configuration(conf),
        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
        ItCluster.appJar()).run(new String[] {"submit", "--principal", "alice@" + realm, "--keytab",
            keytab.getAbsolutePath(), "--dry-run", "--jar", hdfs + jar, "--class", "org.elasticam.examples.GroupBySum",
            hdfs + "/user/alice/sums", hdfs + INPUT}));
    assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("nothing was submitted (--dry-run)"),
        out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aMissingKeytabIsNamed() {
    UsageException e = assertThrows(UsageException.class, () -> SecureLogin.login(ElasticConf.of(Map.of(
        "elasticam.yarn.principal", "alice@" + realm, "elasticam.yarn.keytab", "/nonexistent/alice.keytab"))));
    assertEquals("the keytab /nonexistent/alice.keytab (--keytab, elasticam.yarn.keytab) does not exist or cannot be read",
        e.getMessage());
  }
}
