package org.elasticam.executor;

import com.google.protobuf.ByteString;
import java.io.DataInputStream;
import java.io.IOException;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Delegation tokens the driver sends when the AM renewed them: they replace the tokens of the same
 * service in this process's user, so every file system client opened from now on (a task's input,
 * its output) authenticates with the new ones.
 */
final class DelegationTokens {

  private DelegationTokens() {}

  /** @return how many tokens were taken */
  static int take(ByteString tokens) throws IOException {
    Credentials creds = new Credentials();
    try (DataInputStream in = new DataInputStream(tokens.newInput())) {
      creds.readTokenStorageStream(in);
    }
    // Credentials#addAll replaces a token under the same alias: the old one for that service goes.
    UserGroupInformation.getCurrentUser().addCredentials(creds);
    return creds.numberOfTokens();
  }
}
