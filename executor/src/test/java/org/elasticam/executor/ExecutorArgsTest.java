package org.elasticam.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExecutorArgsTest {

  private static ExecutorArgs parse(String... extra) {
    List<String> args = new ArrayList<>(List.of("--driver", "am-host:4242", "--executor-id", "3", "--app-id",
        "application_1_0001", "--cores", "2"));
    args.addAll(List.of(extra));
    return ExecutorArgs.parse(args.toArray(String[]::new));
  }

  @Test
  void theControlPlaneIsDialledWithNettyUnlessTheLaunchContextSaysOkHttp() {
    ExecutorArgs plain = parse();
    assertFalse(plain.controlPlaneTls());
    assertFalse(plain.okHttpControlPlane(), "an AM that does not say: the transport it serves with");
    assertTrue(parse("--control-plane-transport", "okhttp").okHttpControlPlane());
    assertFalse(parse("--control-plane-transport", "netty").okHttpControlPlane());
    assertTrue(parse("--control-plane", "tls").controlPlaneTls());
  }

  @Test
  void anUnknownTransportIsRefusedByName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> parse("--control-plane-transport", "quic"));
    assertEquals("--control-plane-transport must be okhttp or netty, got 'quic'", e.getMessage());
  }
}
