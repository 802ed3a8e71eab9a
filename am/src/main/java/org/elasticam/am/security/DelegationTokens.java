package org.elasticam.am.security;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.apache.hadoop.security.token.delegation.AbstractDelegationTokenIdentifier;

/**
 * The delegation tokens of a set of credentials with their decoded identifiers, which say when each
 * was issued and its maximum lifetime. Tokens that are not delegation tokens, or whose identifier
 * this JVM cannot decode (its kind's class is not on the classpath), say nothing and are left out.
 */
public record DelegationTokens(Token<? extends TokenIdentifier> token, AbstractDelegationTokenIdentifier id) {

  public static List<DelegationTokens> in(Credentials creds) {
    List<DelegationTokens> out = new ArrayList<>();
    for (Token<? extends TokenIdentifier> t : creds.getAllTokens()) {
      TokenIdentifier id;
      try {
        id = t.decodeIdentifier();
      } catch (IOException e) {
        continue;
      }
      if (id instanceof AbstractDelegationTokenIdentifier d) {
        out.add(new DelegationTokens(t, d));
      }
    }
    return out;
  }
}
