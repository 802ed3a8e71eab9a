package org.elasticam.testkit.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Predicate;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.junit.jupiter.api.Test;

/**
 * What YarnAllocator relies on from a ResourceManager, as assertions that hold for the fake and
 * for a real one. Subclasses provide a registered client and the cluster's node hosts; the unit
 * tests run this against {@link FakeResourceManager}, the integration tests against the embedded
 * cluster's ResourceManager, so the fake cannot drift from the real thing unnoticed.
 */
public abstract class ResourceManagerContract {

  /**
   * The priorities YarnAllocator asks under (located asks first, then locality-free ones); its own
   * test holds them equal to YarnAllocator's, as this module cannot see the AM.
   */
  public static final Priority LOCALITY_PRIORITY = Priority.newInstance(1);
  public static final Priority LOCALITY_FREE_PRIORITY = Priority.newInstance(2);

  private static final Priority PRIORITY = LOCALITY_FREE_PRIORITY;
  private static final int MAX_HEARTBEATS = 200;

  /** A registered client; the same one for the whole test. */
  protected abstract AMRMClient<ContainerRequest> client();

  /** Host names of at least two nodes, as the ResourceManager names them. */
  protected abstract List<String> hosts();

  /** Called between heartbeats: a real cluster needs time to schedule. */
  protected abstract void pause() throws InterruptedException;

  protected Resource resource() {
    return Resource.newInstance(256, 1);
  }

  private final List<Container> granted = new ArrayList<>();
  private final List<ContainerStatus> completed = new ArrayList<>();

  private void heartbeat() throws Exception {
    AllocateResponse r = client().allocate(0.1f);
    granted.addAll(r.getAllocatedContainers());
    completed.addAll(r.getCompletedContainersStatuses());
  }

  private void heartbeatUntil(Predicate<Void> done, String what) throws Exception {
    for (int i = 0; i < MAX_HEARTBEATS; i++) {
      heartbeat();
      if (done.test(null)) {
        return;
      }
      pause();
    }
    fail("after " + MAX_HEARTBEATS + " heartbeats: " + what + "; granted " + granted + ", completed " + completed);
  }

  private void heartbeats(int n) throws Exception {
    for (int i = 0; i < n; i++) {
      heartbeat();
      pause();
    }
  }

  /** Withdraws one matching request per grant, as YarnAllocator does. */
  private void removeSatisfied(List<Container> containers) {
    for (Container c : containers) {
      List<? extends Collection<ContainerRequest>> matching =
          client().getMatchingRequests(c.getPriority(), ResourceRequest.ANY, resource());
      if (!matching.isEmpty() && !matching.get(0).isEmpty()) {
        client().removeContainerRequest(matching.get(0).iterator().next());
      }
    }
  }

  private void releaseAll() throws Exception {
    int before = completed.size();
    for (Container c : granted) {
      client().releaseAssignedContainer(c.getId());
    }
    int expected = before + granted.size();
    heartbeatUntil(v -> completed.size() >= expected, "released containers complete");
  }

  @Test
  void grantsWhatWasAskedAndNoMoreOnceRequestsAreWithdrawn() throws Exception {
    for (int i = 0; i < 2; i++) {
      client().addContainerRequest(new ContainerRequest(resource(), null, null, PRIORITY));
    }
    heartbeatUntil(v -> granted.size() >= 2, "two containers granted");
    removeSatisfied(granted);
    heartbeats(10);
    assertEquals(2, granted.size(), "no grants beyond the asks");
    for (Container c : granted) {
      assertEquals(PRIORITY, c.getPriority());
      assertTrue(c.getResource().getMemorySize() >= resource().getMemorySize());
    }
    releaseAll();
  }

  @Test
  void releasedContainersCompleteAsAborted() throws Exception {
    client().addContainerRequest(new ContainerRequest(resource(), null, null, PRIORITY));
    heartbeatUntil(v -> !granted.isEmpty(), "a container granted");
    removeSatisfied(granted);
    releaseAll();
    ContainerStatus s = completed.get(completed.size() - 1);
    assertEquals(granted.get(0).getId(), s.getContainerId());
    assertEquals(ContainerExitStatus.ABORTED, s.getExitStatus());
  }

  @Test
  void strictLocalityLandsOnTheNamedNode() throws Exception {
    String target = hosts().get(1);
    client().addContainerRequest(new ContainerRequest(resource(), new String[] {target}, null,
        LOCALITY_PRIORITY, false));
    heartbeatUntil(v -> !granted.isEmpty(), "a container on " + target);
    assertEquals(target, granted.get(0).getNodeId().getHost());
    removeSatisfied(granted);
    releaseAll();
  }

  @Test
  void excludedNodesGetNoContainers() throws Exception {
    String excluded = hosts().get(0);
    client().updateBlacklist(new ArrayList<>(List.of(excluded)), new ArrayList<>());
    for (int i = 0; i < 3; i++) {
      client().addContainerRequest(new ContainerRequest(resource(), null, null, PRIORITY));
    }
    heartbeatUntil(v -> granted.size() >= 3, "three containers granted");
    removeSatisfied(granted);
    assertTrue(granted.stream().noneMatch(c -> c.getNodeId().getHost().equals(excluded)), granted::toString);
    client().updateBlacklist(new ArrayList<>(), new ArrayList<>(List.of(excluded)));
    releaseAll();
  }

  @Test
  void aRequestWithdrawnBeforeTheHeartbeatIsNeverGranted() throws Exception {
    ContainerRequest r = new ContainerRequest(resource(), null, null, PRIORITY);
    client().addContainerRequest(r);
    client().removeContainerRequest(r);
    heartbeats(10);
    assertEquals(List.of(), granted);
  }
}
