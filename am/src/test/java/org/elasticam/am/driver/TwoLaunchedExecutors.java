package org.elasticam.am.driver;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.elasticam.engine.job.AllocatorPort;

/**
 * A stateful fake allocator for control-plane tests: executors 1 and 2 were launched in containers
 * c1 and c2 on localhost; every kill is recorded as {@code "<id>: <reason>"}.
 */
final class TwoLaunchedExecutors implements AllocatorPort {

  final List<String> killed = new CopyOnWriteArrayList<>();

  @Override
  public boolean requestTotalExecutors(int target, int tasks, Map<String, Integer> hosts, java.util.Set<String> excluded) {
    return true;
  }

  @Override
  public void killExecutor(String id, String reason) {
    killed.add(id + ": " + reason);
  }

  @Override
  public void killFailedExecutor(String id, String why) {
    killed.add(id + ": " + why);
  }

  @Override
  public Optional<Launched> launched(String id) {
    return id.equals("1") || id.equals("2") ? Optional.of(new Launched("c" + id, "localhost", 0)) : Optional.empty();
  }
}
