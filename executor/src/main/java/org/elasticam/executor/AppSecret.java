package org.elasticam.executor;

import java.io.IOException;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The application's secret, as YARN hands it to every container of the application: a secret key
 * in the credentials file the NodeManager writes ({@code HADOOP_TOKEN_FILE_LOCATION}), which the
 * container's user alone can read. It is never on a command line or in the environment.
 */
public final class AppSecret {

  /** The key under which the client puts the secret into the application's credentials. */
  public static final Text KEY = new Text(org.elasticam.rpc.AppSecretAuth.CREDENTIALS_KEY);

  private AppSecret() {}

  /** @throws IOException when the credentials hold no secret: this is not one of our containers */
  public static byte[] fromCredentials() throws IOException {
    byte[] secret = UserGroupInformation.getCurrentUser().getCredentials().getSecretKey(KEY);
    if (secret == null || secret.length == 0) {
      throw new IOException("the container's credentials hold no application secret (" + KEY + ")");
    }
    return secret;
  }
}
