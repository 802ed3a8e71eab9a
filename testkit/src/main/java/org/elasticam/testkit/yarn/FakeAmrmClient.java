package org.elasticam.testkit.yarn;

import org.apache.hadoop.yarn.api.ApplicationMasterProtocol;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.client.api.impl.AMRMClientImpl;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * The real AMRMClientImpl — its request table, its ask deltas, its release bookkeeping — talking
 * to a {@link FakeResourceManager} instead of an RPC proxy.
 */
public final class FakeAmrmClient extends AMRMClientImpl<ContainerRequest> {

  private FakeAmrmClient(ApplicationMasterProtocol rm) {
    this.rmClient = rm;
  }

  /** An initialised client of {@code rm}, not started or registered: as an AM gets it to start itself. */
  public static AMRMClient<ContainerRequest> unstarted(ApplicationMasterProtocol rm) {
    FakeAmrmClient client = new FakeAmrmClient(rm);
    client.init(new YarnConfiguration());
    return client;
  }

  /** A started client, registered with {@code rm}. */
  public static AMRMClient<ContainerRequest> connectedTo(ApplicationMasterProtocol rm) {
    FakeAmrmClient client = new FakeAmrmClient(rm);
    client.init(new YarnConfiguration());
    client.start();
    try {
      client.registerApplicationMaster("am-host", 0, "");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return client;
  }
}
