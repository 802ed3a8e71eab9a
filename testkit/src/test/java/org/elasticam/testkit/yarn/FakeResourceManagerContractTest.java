package org.elasticam.testkit.yarn;

import java.util.List;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.junit.jupiter.api.AfterEach;

/** The contract, against the fake: the fake must behave as the real ResourceManager does. */
class FakeResourceManagerContractTest extends ResourceManagerContract {

  private final FakeResourceManager rm = new FakeResourceManager()
      .addNode("host1", "/rack1", 4096)
      .addNode("host2", "/rack1", 4096)
      .autoSchedule(true);
  private final AMRMClient<ContainerRequest> client = FakeAmrmClient.connectedTo(rm);

  @AfterEach
  void stop() {
    client.stop();
  }

  @Override
  protected AMRMClient<ContainerRequest> client() {
    return client;
  }

  @Override
  protected List<String> hosts() {
    return rm.hosts();
  }

  @Override
  protected void pause() {
    // the fake schedules within each allocate call
  }
}
