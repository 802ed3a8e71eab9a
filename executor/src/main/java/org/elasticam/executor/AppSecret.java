package org.elasticam.executor;

import java.io.IOException;
import java.nio.file.Path;
import org.elasticam.rpc.AppSecretAuth;

/**
 * The application's secret, as YARN hands it to every container of the application: a secret key
 * in the credentials file the NodeManager writes ({@code HADOOP_TOKEN_FILE_LOCATION}), which only
 * the container's user can read. It is never on a command line or in the environment.
 *
 * <p>The file is read directly rather than through {@code UserGroupInformation}: a UGI login costs
 * an executor about half a second of CPU at start-up (measured; BENCHMARKS.md), and the executor
 * needs nothing else from it. Nor through Hadoop's {@code Credentials}: see {@link TokenStorageFile}.
 */
public final class AppSecret {

  static final String TOKEN_FILE_ENV = "HADOOP_TOKEN_FILE_LOCATION";

  private AppSecret() {}

  /** @throws IOException when there is no credentials file or it holds no secret */
  public static byte[] fromCredentials() throws IOException {
    String file = System.getenv(TOKEN_FILE_ENV);
    if (file == null || file.isBlank()) {
      throw new IOException(TOKEN_FILE_ENV + " is not set: the executor runs in a YARN container");
    }
    return read(Path.of(file));
  }

  static byte[] read(Path file) throws IOException {
    byte[] secret = TokenStorageFile.secretKey(file, AppSecretAuth.CREDENTIALS_KEY).orElse(new byte[0]);
    if (secret.length == 0) {
      throw new IOException("the container's credentials hold no application secret (" + AppSecretAuth.CREDENTIALS_KEY
          + ")");
    }
    return secret;
  }
}
