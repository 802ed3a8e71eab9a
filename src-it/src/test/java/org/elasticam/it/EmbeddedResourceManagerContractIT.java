package org.elasticam.it;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.elasticam.testkit.yarn.ResourceManagerContract;
import org.elasticam.embedded.EmbeddedCluster;
import org.elasticam.embedded.UnmanagedApplication;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * The contract the fake ResourceManager is held to, against the embedded cluster's real one. The
 * cluster is shared by the class; each test gets an application of its own (an unmanaged AM, so
 * the test thread is the ApplicationMaster), because the contract assumes a clean client.
 */
@Timeout(120)
class EmbeddedResourceManagerContractIT extends ResourceManagerContract {

  private static final Duration REGISTRATION = Duration.ofSeconds(30);

  private static EmbeddedCluster cluster;
  private UnmanagedApplication app;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = EmbeddedCluster.start(EmbeddedCluster.Settings
        .in(Path.of("target/it-clusters/EmbeddedResourceManagerContractIT"))
        .withLogToFile(false));
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @BeforeEach
  void registerApplication(TestInfo test) throws Exception {
    app = UnmanagedApplication.register(cluster.configuration(),
        "contract " + test.getTestMethod().map(m -> m.getName()).orElse("?"), REGISTRATION);
  }

  @AfterEach
  void unregisterApplication() throws Exception {
    if (app != null) {
      app.close();
    }
  }

  @Override
  protected AMRMClient<ContainerRequest> client() {
    return app.client();
  }

  @Override
  protected List<String> hosts() {
    return cluster.nodeHosts();
  }

  @Override
  protected void pause() throws InterruptedException {
    // about one NodeManager heartbeat (100 ms): the scheduler assigns on heartbeats
    Thread.sleep(100);
  }
}
