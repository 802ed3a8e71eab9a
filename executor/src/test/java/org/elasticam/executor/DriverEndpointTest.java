package org.elasticam.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The endpoint file is read by every surviving executor: garbage in it must never be trusted. */
class DriverEndpointTest {

  @TempDir
  Path dir;

  @Test
  void hostAndPort() {
    assertEquals(new DriverEndpoint("127.0.0.2", 4711), DriverEndpoint.parse(" 127.0.0.2:4711\n"));
    assertEquals(new DriverEndpoint("::1", 80), DriverEndpoint.parse("::1:80"));
  }

  @Test
  void malformedEndpointsAreRefused() {
    for (String bad : new String[] {"", "host", ":80", "host:", "host:http", "host:0", "host:65536", "host:-1",
        "host:99999999999999999999"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DriverEndpoint.parse(bad), bad);
      assertTrue(e.getMessage().contains(bad.trim()), e.getMessage());
    }
  }

  @Test
  void aMissingFileIsNoEndpointYetAndAnOversizedOneIsReadOnlyInPart() throws Exception {
    Path f = dir.resolve("am-endpoint");
    assertTrue(DriverEndpointFile.read(f.toUri()).isEmpty());
    Files.writeString(f, "");
    assertTrue(DriverEndpointFile.read(f.toUri()).isEmpty());
    Files.writeString(f, "x".repeat(1 << 20));
    assertThrows(IllegalArgumentException.class, () -> DriverEndpointFile.read(f.toUri()));
    Files.writeString(f, "127.0.0.1:4242\ntrailing garbage");
    assertEquals(new DriverEndpoint("127.0.0.1", 4242), DriverEndpointFile.read(f.toUri()).orElseThrow());
  }
}
