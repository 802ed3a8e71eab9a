package org.elasticam.bench.launch;

import java.io.OutputStream;
import java.net.Socket;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * The floor of an AM's own start: a managed ApplicationMaster that does only what any Java AM must
 * (Hadoop's AMRM client, registration), then connects back to the benchmark, unregisters and exits.
 * No logging configuration, no control plane, no job: what is left is YARN, the JVM and Hadoop's
 * client.
 */
public final class MinimalAm {

  private MinimalAm() {}

  public static void main(String[] args) throws Exception {
    AMRMClient<ContainerRequest> rm = AMRMClient.createAMRMClient();
    rm.init(new YarnConfiguration());
    rm.start();
    try {
      rm.registerApplicationMaster("", 0, "");
      try (Socket s = new Socket(args[0], Integer.parseInt(args[1])); OutputStream out = s.getOutputStream()) {
        out.write(1);
      }
      rm.unregisterApplicationMaster(FinalApplicationStatus.SUCCEEDED, "", "");
    } finally {
      rm.stop();
    }
  }
}
