package org.elasticam.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.elasticam.allocator.HeartbeatSchedule;
import org.elasticam.allocator.exit.ExitStatus;
import org.elasticam.allocator.model.AskId;
import org.elasticam.allocator.model.Grant;
import org.junit.jupiter.api.Test;

/** The simulator's own parts, one at a time. */
class SimPartsTest {

  @Test
  void theResourceManagerGrantsAfterTheLatencyWithinCapacity() {
    SimResourceManager rm = new SimResourceManager(200, 2, List.of("h1", "h2", "h3"));
    rm.request(new AskId(1), List.of(), true, 0);
    rm.request(new AskId(2), List.of("h3"), false, 0);
    rm.request(new AskId(3), List.of(), true, 100);
    assertEquals(List.of(), rm.allocate(199).grants());
    List<Grant> grants = rm.allocate(200).grants();
    assertEquals(List.of("h1", "h3"), grants.stream().map(Grant::host).toList());
    assertEquals(List.of(true, false), grants.stream().map(Grant::localityFree).toList());
    // The AM withdraws the asks the grants matched; the third is due but the cluster is full.
    rm.withdraw(new AskId(1));
    rm.withdraw(new AskId(2));
    assertEquals(List.of(), rm.allocate(400).grants());
    rm.release(grants.get(0).container());
    SimResourceManager.Response r = rm.allocate(500);
    assertEquals(ExitStatus.ABORTED, r.completed().get(0).exitStatus());
    assertEquals(grants.get(0).container(), r.completed().get(0).container());
    assertEquals(List.of("h2"), r.grants().stream().map(Grant::host).toList(), "round-robin goes on");
    assertEquals(2, rm.heldContainers());
  }

  @Test
  void aRequestNamingHostsLandsOnTheLeastLoadedOfThem() {
    SimResourceManager rm = new SimResourceManager(0, 10, List.of("h1", "h2"));
    rm.request(new AskId(1), List.of("h1", "h2"), false, 0);
    rm.request(new AskId(2), List.of("h1", "h2"), false, 0);
    assertEquals(List.of("h1", "h2"), rm.allocate(0).grants().stream().map(Grant::host).toList());
  }

  @Test
  void aHostHoldsItsShareOfTheCapacityAndFullNamedHostsSendTheRequestElsewhere() {
    // 7 containers over 3 hosts: at most 3 on each.
    SimResourceManager rm = new SimResourceManager(0, 7, List.of("h1", "h2", "h3"));
    for (int i = 1; i <= 5; i++) {
      rm.request(new AskId(i), List.of("h1"), false, 0);
    }
    List<Grant> grants = rm.allocate(0).grants();
    assertEquals(List.of("h1", "h1", "h1", "h2", "h3"), grants.stream().map(Grant::host).toList(),
        "the fourth and fifth find h1 full and go to the least loaded hosts");
    for (int i = 1; i <= 5; i++) {
      rm.withdraw(new AskId(i));
    }
    // Round-robin skips full hosts: h1 holds 3, so the unnamed requests fill h2 and h3.
    rm.request(new AskId(6), List.of(), true, 0);
    rm.request(new AskId(7), List.of(), true, 0);
    rm.request(new AskId(8), List.of(), true, 0);
    assertEquals(List.of("h2", "h3"), rm.allocate(0).grants().stream().map(Grant::host).toList(),
        "the seventh container is the capacity");
  }

  /**
   * The heartbeats of a schedule in the simulator, until {@code count} were made: requests pending
   * from the start, nothing pending from 1000 ms, a target change at 5000 ms.
   */
  private static List<Long> beats(HeartbeatSchedule.Intervals intervals, int count) {
    EventQueue q = new EventQueue();
    List<Long> beats = new ArrayList<>();
    boolean[] pending = {true};
    SimHeartbeater hb = new SimHeartbeater(q, () -> beats.add(q.now()), () -> pending[0], intervals);
    hb.start();
    q.at(1000, () -> pending[0] = false);
    q.at(5000, () -> {
      pending[0] = true;
      hb.wakeUp();
    });
    while (beats.size() < count && q.runNext()) {
      // run
    }
    return beats;
  }

  /**
   * Pending from the start: 0, then 200, 400, 800 ms apart; nothing pending from 1000: 3 s apart;
   * a target change at 5000 heartbeats at once and restarts the doubling, dropping the 7400 beat.
   */
  @Test
  void theHeartbeatDoublesWhileRequestsArePending() {
    assertEquals(List.of(0L, 200L, 600L, 1400L, 4400L, 5000L, 5200L, 5600L, 6400L, 8000L),
        beats(HeartbeatSchedule.Intervals.spark(200, 3000), 10));
  }

  /** The AM's default: 50 ms apart within the first 200 ms, then the same doubling. */
  @Test
  void firstPollsComeBeforeTheDoublingAndAfterEachTargetChange() {
    assertEquals(List.of(0L, 50L, 100L, 150L, 200L, 600L, 1400L, 4400L, 5000L, 5050L, 5100L, 5150L, 5200L),
        beats(new HeartbeatSchedule.Intervals(50, 200, 3000), 13));
  }

  @Test
  void medianOfStages() {
    assertEquals(0, StageParallelism.median(List.of()));
    assertEquals(5, StageParallelism.median(List.of(9L, 5L, 1L)));
    assertEquals(3, StageParallelism.median(List.of(1L, 2L, 4L, 10L)));
  }

  @Test
  void fullParallelismIsCappedByTheSlots() {
    StageParallelism p = new StageParallelism(2);
    p.submitted(7, 5, 1000);
    p.taskStarted(7, 1500);
    p.taskStarted(7, 1800);
    p.submitted(8, 3, 2000);
    p.taskStarted(8, 2100);
    p.taskEnded(8);
    p.completed(8, 9000);
    assertEquals(3900, p.medianMs(), "stage 7 reached 2 at +800; stage 8 never reached 2: its 7000 counts");
  }
}
