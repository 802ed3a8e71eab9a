package org.elasticam.it;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * A real KDC ({@code MiniKdc}) and a Kerberized HDFS ({@code MiniDFSCluster}: block access tokens,
 * SASL data transfer) in this JVM, with delegation tokens of short lives. One keytab holds the
 * principals {@code hdfs/localhost} (the NameNode's and DataNode's, and this JVM's login user),
 * {@code HTTP/localhost}, {@code rm/localhost} and the user {@code alice}, whose home directory
 * exists; {@code hdfs} may act for other users. Starting it makes this JVM's Hadoop security
 * Kerberos, for good.
 */
final class SecureHdfs implements AutoCloseable {

  static final String SERVICE = "hdfs/localhost";
  static final String USER = "alice";

  private final MiniKdc kdc;
  private final MiniDFSCluster dfs;
  private final File keytab;

  private SecureHdfs(MiniKdc kdc, MiniDFSCluster dfs, File keytab) {
    this.kdc = kdc;
    this.dfs = dfs;
    this.keytab = keytab;
  }

  /**
   * @param tokenRenewInterval a delegation token not renewed within this expires
   * @param tokenMaxLifetime no renewal helps a token older than this
   * @param rmPrincipal the ResourceManager principal clients name as their tokens' renewer
   */
  static SecureHdfs start(String name, Duration tokenRenewInterval, Duration tokenMaxLifetime, String rmPrincipal)
      throws Exception {
    Path dir = Path.of("target", name + "-" + System.currentTimeMillis()).toAbsolutePath();
    Files.createDirectories(dir);
    MiniKdc kdc = new MiniKdc(MiniKdc.createConf(), dir.resolve("kdc").toFile());
    kdc.start();
    String realm = kdc.getRealm();
    File keytab = dir.resolve("cluster.keytab").toFile();
    kdc.createPrincipal(keytab, SERVICE, "HTTP/localhost", "rm/localhost", USER);

    Configuration conf = new HdfsConfiguration();
    SecurityUtil.setAuthenticationMethod(UserGroupInformation.AuthenticationMethod.KERBEROS, conf);
    for (String key : List.of(DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY,
        DFSConfigKeys.DFS_DATANODE_KERBEROS_PRINCIPAL_KEY)) {
      conf.set(key, SERVICE + "@" + realm);
    }
    for (String key : List.of(DFSConfigKeys.DFS_NAMENODE_KEYTAB_FILE_KEY, DFSConfigKeys.DFS_DATANODE_KEYTAB_FILE_KEY,
        DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_KEYTAB_KEY)) {
      conf.set(key, keytab.getAbsolutePath());
    }
    conf.set(DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_PRINCIPAL_KEY, "HTTP/localhost@" + realm);
    conf.setBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, true);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_RENEW_INTERVAL_KEY, tokenRenewInterval.toMillis());
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_MAX_LIFETIME_KEY, tokenMaxLifetime.toMillis());
    conf.set(DFSConfigKeys.DFS_DATA_TRANSFER_PROTECTION_KEY, "authentication");
    // One DataNode: one replica per block, for clients and containers too (see siteKeys).
    conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, 1);
    // Privileged ports or HTTPS are what a production DataNode needs; a test cannot bind the first.
    conf.setBoolean("ignore.secure.ports.for.testing", true);
    conf.set("yarn.resourcemanager.principal", rmPrincipal + "@" + realm);
    // A ResourceManager with proxy-user privileges (the service principal's short name) obtains
    // tokens for applications whose own ones reached their maximum lifetime (YARN-2704).
    conf.set("hadoop.proxyuser.hdfs.hosts", "*");
    conf.set("hadoop.proxyuser.hdfs.groups", "*");
    UserGroupInformation.setConfiguration(conf);
    UserGroupInformation.loginUserFromKeytab(SERVICE + "@" + realm, keytab.getAbsolutePath());
    MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf, dir.resolve("dfs").toFile()).numDataNodes(1).build();
    dfs.waitActive();
    FileSystem fs = dfs.getFileSystem();
    org.apache.hadoop.fs.Path home = new org.apache.hadoop.fs.Path("/user/" + USER);
    fs.mkdirs(home.getParent(), new FsPermission((short) 0755));
    fs.mkdirs(home, new FsPermission((short) 0700));
    fs.setOwner(home, USER, USER);
    return new SecureHdfs(kdc, dfs, keytab);
  }

  String realm() {
    return kdc.getRealm();
  }

  /** {@code name@REALM}. */
  String principal(String name) {
    return name + "@" + realm();
  }

  File keytab() {
    return keytab;
  }

  Path krb5Conf() {
    return kdc.getKrb5conf().toPath();
  }

  /** The running HDFS's client configuration (with the NameNode's address). */
  Configuration conf() {
    return new Configuration(dfs.getConfiguration(0));
  }

  /** An HDFS client for this JVM's login user, the HDFS superuser. */
  FileSystem fileSystem() throws IOException {
    return dfs.getFileSystem();
  }

  /**
   * What the site files of a cluster sharing this JVM need from this HDFS: what its clients (and
   * containers) must know beyond Hadoop's defaults, and the proxy users, because the proxy-user
   * table is JVM-wide and a ResourceManager reloads it from its own configuration.
   */
  Map<String, String> siteKeys() {
    Configuration c = conf();
    Map<String, String> keys = new LinkedHashMap<>();
    for (String key : List.of("fs.defaultFS", DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY,
        DFSConfigKeys.DFS_DATANODE_KERBEROS_PRINCIPAL_KEY, DFSConfigKeys.DFS_DATA_TRANSFER_PROTECTION_KEY,
        DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, DFSConfigKeys.DFS_REPLICATION_KEY,
        "hadoop.proxyuser.hdfs.hosts", "hadoop.proxyuser.hdfs.groups")) {
      keys.put(key, c.get(key));
    }
    return keys;
  }

  @Override
  public void close() {
    dfs.shutdown();
    kdc.stop();
  }
}
