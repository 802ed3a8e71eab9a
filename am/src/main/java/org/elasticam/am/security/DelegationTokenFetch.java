package org.elasticam.am.security;

import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.security.Credentials;
import org.elasticam.conf.ElasticConf;
import org.elasticam.conf.YarnKeys;

/** The file systems an application needs tokens for, and obtaining them: for the client and the AM alike. */
public final class DelegationTokenFetch {

  private DelegationTokenFetch() {}

  /** {@code fs.defaultFS} and every file system in {@code elasticam.yarn.access.hadoopFileSystems}. */
  public static Set<URI> filesystems(Configuration conf, ElasticConf elastic) {
    Set<URI> out = new LinkedHashSet<>();
    out.add(FileSystem.getDefaultUri(conf));
    for (String fs : elastic.get(YarnKeys.ACCESS_FILESYSTEMS)) {
      out.add(URI.create(fs.trim()));
    }
    return out;
  }

  /** Delegation tokens for each file system, which {@code renewer} may renew; as the current user. */
  public static Credentials obtain(Configuration conf, Set<URI> filesystems, String renewer) throws IOException {
    Credentials creds = new Credentials();
    for (URI fs : filesystems) {
      try {
        FileSystem.get(fs, conf).addDelegationTokens(renewer, creds);
      } catch (IOException | RuntimeException e) {
        throw new IOException("cannot obtain a delegation token for " + fs + ": " + firstLine(e), e);
      }
    }
    return creds;
  }

  public static String firstLine(Throwable e) {
    String m = e.getMessage();
    return (m == null || m.isBlank() ? e.getClass().getSimpleName() : m).lines().findFirst().orElse("");
  }
}
