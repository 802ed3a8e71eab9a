package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * What the shaded jar holds: only our packages and relocated Netty, no Hadoop, no SLF4J, and of
 * native code only the epoll transport's libraries, renamed after the relocation as Netty's
 * NativeLibraryLoader looks for them (that they load in a NodeManager, both ways, is
 * {@link ShuffleServiceCase}'s and {@link DeploymentIT}'s to show).
 */
class ShuffleServiceJarIT {

  /** The prefix NativeLibraryLoader derives from org.elasticam.shaded.io.netty.util.internal. */
  static final String NATIVE_PREFIX = "META-INF/native/liborg_elasticam_shaded_netty_transport_native_epoll_";

  @Test
  void everyBundledPackageIsOursOrRelocatedUnderOrgElasticamShaded() throws Exception {
    List<String> foreign = new ArrayList<>();
    List<String> natives = new ArrayList<>();
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
        if (n.startsWith(NATIVE_PREFIX) && n.endsWith(".so")) {
          natives.add(n);
        } else if ((n.startsWith("META-INF/native") && !e.isDirectory()) || n.endsWith(".so") || n.endsWith(".jnilib")
            || n.endsWith(".dll")) {
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
    assertEquals(List.of(), foreign, "unrelocated entries, or native ones not named for the relocation");
    assertEquals(List.of(NATIVE_PREFIX + "aarch_64.so", NATIVE_PREFIX + "x86_64.so"), natives.stream().sorted().toList(),
        "the epoll transport's libraries for Linux aarch64 and x86_64, renamed");
    assertTrue(netty > 500, "Netty is bundled, relocated: " + netty + " classes");
  }
}
