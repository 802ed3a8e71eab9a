package org.elasticam.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.elasticam.rpc.proto.StartPhases.Builder;
import org.junit.jupiter.api.Test;

class StartPhasesTest {

  @Test
  void eachStepIsMarkedOnceInOrderAndGoesToTheDriverWithTheJvmsStart() {
    StartPhases p = new StartPhases();
    org.elasticam.startup.StartMark main = p.mark("main");
    p.mark("registered");
    assertEquals(main, p.mark("main"), "a step is marked the first time only");
    assertEquals(List.of("main", "registered"), List.copyOf(p.marks().keySet()));
    org.elasticam.startup.StartMark registered = p.marks().get("registered");
    assertTrue(registered.uptimeMs() >= main.uptimeMs());
    assertTrue(registered.classesLoaded() >= main.classesLoaded() && main.classesLoaded() > 0);
    assertTrue(main.cpuMs() >= 0, "the process's CPU time is known on this JVM");

    Builder b = org.elasticam.rpc.proto.StartPhases.newBuilder();
    p.into(b);
    assertEquals(2, b.getStepsCount());
    assertEquals("main", b.getSteps(0).getStep());
    long started = java.lang.management.ManagementFactory.getRuntimeMXBean().getStartTime();
    assertEquals(started, b.getJvmStartMs());
  }
}
