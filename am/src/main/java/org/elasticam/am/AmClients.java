package org.elasticam.am;

import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.elasticam.am.yarn.NodeDirectory;
import org.elasticam.launcher.ExecutorLauncher;
import org.elasticam.launcher.yarn.ExecutorLaunchSpec;
import org.elasticam.launcher.yarn.YarnContainerLauncher;

/**
 * The clients the AM reaches YARN through, one factory method each: YARN's own in a container
 * ({@link #yarn}), a fake ResourceManager and launcher in tests. The AM creates each once.
 */
public interface AmClients {

  /** The scheduling protocol's client, initialised and not yet started. */
  AMRMClient<ContainerRequest> resourceManager();

  /** What starts executors in granted containers, as {@code spec} says. */
  ExecutorLauncher launcher(ExecutorLaunchSpec spec, int threads);

  /**
   * The cluster's live nodes, refreshed off the event loop.
   *
   * @param rmUser who may ask the ResourceManager; empty when nobody can (a secure cluster without a keytab)
   */
  Nodes nodes(Optional<UserGroupInformation> rmUser);

  /** The cluster's live nodes, closed with the AM. */
  interface Nodes extends NodeDirectory, AutoCloseable {
    @Override
    List<String> liveHosts();

    @Override
    void close();
  }

  /** YARN's clients, on {@code conf}. */
  static AmClients yarn(Configuration conf) {
    return new AmClients() {
      @Override
      public AMRMClient<ContainerRequest> resourceManager() {
        AMRMClient<ContainerRequest> c = AMRMClient.createAMRMClient();
        c.init(conf);
        return c;
      }

      @Override
      public ExecutorLauncher launcher(ExecutorLaunchSpec spec, int threads) {
        return new YarnContainerLauncher(conf, spec, threads);
      }

      @Override
      public Nodes nodes(Optional<UserGroupInformation> rmUser) {
        return new ClusterNodes(conf, rmUser);
      }
    };
  }
}
