package org.elasticam.am;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the AM reads from its container's environment, and what it does with what is missing or wrong. */
class AmEnvironmentTest {

  private static Map<String, String> container() {
    Map<String, String> env = new HashMap<>();
    env.put("CONTAINER_ID", "container_1700000000000_0007_02_000001");
    env.put("NM_HOST", "node-3");
    env.put("USER", "alice");
    env.put("APPLICATION_WEB_PROXY_BASE", "/proxy/application_1700000000000_0007");
    return env;
  }

  @Test
  void theClientsJarDigestIsTakenOnlyWhenItIsOne() {
    Map<String, String> env = container();
    env.put(AmFiles.ENV_APP_JAR_DIGEST, "0123456789abcdef0123456789abcdef");
    assertEquals("0123456789abcdef0123456789abcdef", AmEnvironment.of(env::get).appJarDigest());
    for (String notOne : new String[] {"", "0123", "0123456789ABCDEF0123456789ABCDEF", "../../x/0123456789abcdef01234567"}) {
      env.put(AmFiles.ENV_APP_JAR_DIGEST, notOne);
      assertNull(AmEnvironment.of(env::get).appJarDigest(), notOne);
    }
    env.remove(AmFiles.ENV_APP_JAR_DIGEST);
    assertNull(AmEnvironment.of(env::get).appJarDigest(), "an older client: the AM computes it");
  }

  @Test
  void theAttemptAndWhatTheNodeManagerAlwaysSetsAreRead() {
    AmEnvironment e = AmEnvironment.of(container()::get);
    assertEquals("application_1700000000000_0007", e.appId());
    assertEquals(2, e.attempt().getAttemptId());
    assertEquals("node-3", e.amHost());
    assertNull(e.stagingDir());
    Map<String, String> noHost = container();
    noHost.remove("NM_HOST");
    assertThrows(IllegalStateException.class, () -> AmEnvironment.of(noHost::get));
  }
}
