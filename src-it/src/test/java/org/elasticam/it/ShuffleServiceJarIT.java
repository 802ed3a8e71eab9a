package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/** What the shaded jar holds: only our packages and relocated Netty, no native library, no Hadoop, no SLF4J. */
class ShuffleServiceJarIT {

  @Test
  void everyBundledPackageIsOursOrRelocatedUnderOrgElasticamShaded() throws Exception {
    List<String> foreign = new ArrayList<>();
    int netty = 0;
    try (JarFile jar = new JarFile(ShuffleJar.path().toFile())) {
      for (JarEntry e : java.util.Collections.list(jar.entries())) {
        String n = e.getName();
        if (n.endsWith(".class") && !n.startsWith("org/elasticam/")) {
          foreign.add(n);
        }
        if (n.startsWith("org/elasticam/shaded/io/netty/") && n.endsWith(".class")) {
          netty++;
        }
        if (n.startsWith("META-INF/native") || n.endsWith(".so") || n.endsWith(".jnilib") || n.endsWith(".dll")) {
          foreign.add(n);
        }
        if (n.startsWith("META-INF/services/") && !e.isDirectory()) {
          String body = new String(jar.getInputStream(e).readAllBytes(), StandardCharsets.UTF_8);
          if (body.contains("io.netty.") && !body.contains("org.elasticam.shaded.io.netty.")) {
            foreign.add(n + " names unrelocated Netty");
          }
        }
      }
      assertTrue(jar.getEntry("org/elasticam/shuffle/service/ElasticamShuffleService.class") != null);
      assertTrue(jar.getEntry("org/elasticam/shuffle/client/ShuffleClient.class") != null);
      assertTrue(jar.getEntry("org/elasticam/conf/ShuffleKeys.class") != null);
    }
    assertEquals(List.of(), foreign, "unrelocated or native entries");
    assertTrue(netty > 500, "Netty is bundled, relocated: " + netty + " classes");
  }
}
