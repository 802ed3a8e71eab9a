package org.elasticam.embedded;

import java.io.IOException;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.YarnApplicationAttemptState;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;

/**
 * An application whose ApplicationMaster is this JVM: a registered {@link AMRMClient} against a real
 * ResourceManager without launching an AM container. For tests that drive the AM side themselves.
 *
 * <p>The ResourceManager hands an unmanaged application's AMRM token to its submitter once the
 * attempt is LAUNCHED; the client must be created inside a UGI holding that token, because the
 * RPC proxy captures the UGI it was made in. Later calls may come from any thread.
 */
public final class UnmanagedApplication implements AutoCloseable {

  private static final Duration INTERVAL = Duration.ofMillis(20);

  private final YarnClient yarn;
  private final ApplicationAttemptId attemptId;
  private final UserGroupInformation ugi;
  private final AMRMClient<ContainerRequest> client;

  private UnmanagedApplication(YarnClient yarn, ApplicationAttemptId attemptId, UserGroupInformation ugi,
      AMRMClient<ContainerRequest> client) {
    this.yarn = yarn;
    this.attemptId = attemptId;
    this.ugi = ugi;
    this.client = client;
  }

  /** Submits an unmanaged application named {@code name} and registers its AM client. */
  public static UnmanagedApplication register(Configuration conf, String name, Duration timeout)
      throws IOException, YarnException, InterruptedException {
    YarnClient yarn = YarnClient.createYarnClient();
    yarn.init(conf);
    yarn.start();
    ApplicationId appId = null;
    try {
      appId = submit(yarn, name);
      ApplicationAttemptId attemptId = awaitLaunched(yarn, appId, timeout);
      Token<AMRMTokenIdentifier> token = yarn.getAMRMToken(appId);
      UserGroupInformation ugi = UserGroupInformation.createRemoteUser(attemptId.toString());
      ugi.addToken(token);
      AMRMClient<ContainerRequest> client = ugi.doAs((PrivilegedExceptionAction<AMRMClient<ContainerRequest>>) () -> {
        AMRMClient<ContainerRequest> c = AMRMClient.createAMRMClient();
        c.init(conf);
        c.start();
        c.registerApplicationMaster("localhost", 0, "");
        return c;
      });
      return new UnmanagedApplication(yarn, attemptId, ugi, client);
    } catch (IOException | YarnException | InterruptedException | RuntimeException e) {
      abandon(yarn, appId);
      throw e;
    }
  }

  private static ApplicationId submit(YarnClient yarn, String name) throws IOException, YarnException {
    ApplicationSubmissionContext app = yarn.createApplication().getApplicationSubmissionContext();
    app.setApplicationName(name);
    app.setUnmanagedAM(true);
    app.setMaxAppAttempts(1);
    // Unmanaged, so nothing runs from this context, but submission validates it.
    app.setAMContainerSpec(ContainerLaunchContext.newInstance(Map.of(), Map.of(), null, null, null, null));
    app.setResource(Resource.newInstance(128, 1));
    yarn.submitApplication(app);
    return app.getApplicationId();
  }

  private static ApplicationAttemptId awaitLaunched(YarnClient yarn, ApplicationId appId, Duration timeout)
      throws IOException, InterruptedException {
    ApplicationAttemptId[] attempt = new ApplicationAttemptId[1];
    Poll.until(() -> {
      attempt[0] = yarn.getApplicationReport(appId).getCurrentApplicationAttemptId();
      return attempt[0] != null && yarn.getApplicationAttemptReport(attempt[0]).getYarnApplicationAttemptState()
          == YarnApplicationAttemptState.LAUNCHED;
    }, timeout, INTERVAL, "the attempt of unmanaged " + appId + " to launch", () -> report(yarn, appId));
    return attempt[0];
  }

  private static String report(YarnClient yarn, ApplicationId appId) {
    try {
      var r = yarn.getApplicationReport(appId);
      return r.getYarnApplicationState() + " '" + r.getDiagnostics() + "'";
    } catch (Exception e) {
      return "no report: " + e;
    }
  }

  private static void abandon(YarnClient yarn, ApplicationId appId) {
    try {
      if (appId != null) {
        yarn.killApplication(appId);
      }
    } catch (Exception ignored) {
      // already failing; the original exception says why
    } finally {
      yarn.stop();
    }
  }

  /** Registered with the ResourceManager; the same client for the application's life. */
  public AMRMClient<ContainerRequest> client() {
    return client;
  }

  public ApplicationAttemptId attemptId() {
    return attemptId;
  }

  /** Runs {@code action} as the attempt's user, holding its AMRM token. */
  public <T> T doAs(PrivilegedExceptionAction<T> action) throws IOException, InterruptedException {
    return ugi.doAs(action);
  }

  /** Unregisters as SUCCEEDED (the ResourceManager releases what is left) and stops the clients. */
  @Override
  public void close() throws IOException, YarnException {
    try {
      client.unregisterApplicationMaster(FinalApplicationStatus.SUCCEEDED, "", "");
    } finally {
      client.stop();
      yarn.stop();
    }
  }
}
