package org.elasticam.am;

import java.util.function.Function;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ContainerId;

/**
 * What the AM's container is told through its environment: by the NodeManager (its container,
 * host, user, the web proxy's base) and by our client (the staging directory, our jar).
 *
 * @param stagingDir null where the client set none; {@link #staging} requires it
 * @param appJar our jar on fs.defaultFS as the client staged it; null: in the staging directory
 * @param appJarDigest our jar's digest as the client computed it; null: the client did not say (or
 *     said something that is not one), and the AM computes it
 */
public record AmEnvironment(ApplicationAttemptId attempt, String amHost, String user, String webProxyBase,
    String stagingDir, String appJar, String appJarDigest) {

  /** Reads the environment; a missing variable NodeManagers always set is one clear error. */
  public static AmEnvironment of(Function<String, String> env) {
    ContainerId container = ContainerId.fromString(require(env, Environment.CONTAINER_ID.name()));
    String staging = env.apply(AmFiles.ENV_STAGING_DIR);
    String appJar = env.apply(AmFiles.ENV_APP_JAR);
    String digest = env.apply(AmFiles.ENV_APP_JAR_DIGEST);
    return new AmEnvironment(container.getApplicationAttemptId(), require(env, Environment.NM_HOST.name()),
        require(env, Environment.USER.name()), require(env, ApplicationConstants.APPLICATION_WEB_PROXY_BASE_ENV),
        staging == null || staging.isBlank() ? null : staging, appJar == null || appJar.isBlank() ? null : appJar,
        digest != null && digest.matches("[0-9a-f]{32}") ? digest : null);
  }

  public String appId() {
    return attempt.getApplicationId().toString();
  }

  /** The staging directory our client made; every submission of ours sets it. */
  public String staging() {
    if (stagingDir == null) {
      throw new IllegalStateException("environment variable " + AmFiles.ENV_STAGING_DIR
          + " is not set: the AM was not submitted by ElasticAM's client");
    }
    return stagingDir;
  }

  private static String require(Function<String, String> env, String name) {
    String v = env.apply(name);
    if (v == null || v.isBlank()) {
      throw new IllegalStateException("environment variable " + name + " is not set: the AM runs in a YARN container");
    }
    return v;
  }
}
