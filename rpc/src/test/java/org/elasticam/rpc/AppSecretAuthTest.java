package org.elasticam.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AppSecretAuthTest {

  private static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  private static final String METHOD = "elasticam.v1.Driver/Session";

  @Test
  void aFreshTokenForTheMethodPasses() {
    assertNull(AppSecretAuth.refusal(SECRET, METHOD, AppSecretAuth.token(SECRET, METHOD, 1_000_000), 1_000_500));
  }

  @Test
  void wrongSecretOtherMethodAndStaleTokensAreRefused() {
    String t = AppSecretAuth.token(SECRET, METHOD, 1_000_000);
    byte[] other = SECRET.clone();
    other[0] ^= 1;
    assertEquals("wrong application secret", AppSecretAuth.refusal(other, METHOD, t, 1_000_000));
    assertEquals("wrong application secret", AppSecretAuth.refusal(SECRET, "other/Method", t, 1_000_000));
    assertEquals("stale authentication header (clock skew over 300 s)",
        AppSecretAuth.refusal(SECRET, METHOD, t, 1_000_000 + AppSecretAuth.MAX_SKEW_MS + 1));
  }

  @Test
  void missingHeader() {
    assertEquals("no authentication header", AppSecretAuth.refusal(SECRET, METHOD, null, 0));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "v1", "v1:1:2", "v2:1:" + "00000000000000000000000000000000000000000000000000000000000000ab",
      "v1:abc:0000000000000000000000000000000000000000000000000000000000000000",
      "v1:1:zz00000000000000000000000000000000000000000000000000000000000000", "v1:1:2:3",
      "v1:99999999999999999999999:0000000000000000000000000000000000000000000000000000000000000000"})
  void malformedHeadersAreRefusedNotThrown(String header) {
    assertEquals("malformed authentication header", AppSecretAuth.refusal(SECRET, METHOD, header, 1));
  }
}
