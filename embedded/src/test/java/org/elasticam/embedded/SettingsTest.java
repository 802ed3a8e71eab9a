package org.elasticam.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.elasticam.embedded.EmbeddedCluster.Settings;
import org.junit.jupiter.api.Test;

class SettingsTest {

  @Test
  void defaultsAreTwoNodesOfFourGigabytesOnFreePortsLoggingToAFile() {
    Settings s = Settings.in(Path.of("w"));
    assertEquals(Path.of("w").toAbsolutePath(), s.workDir());
    assertEquals(2, s.nodeManagers());
    assertEquals(4096, s.nodeMemoryMb());
    assertEquals(4, s.nodeVcores());
    assertEquals(0, s.basePort());
    assertEquals(List.of(), s.applicationClasspath());
    assertEquals(Map.of(), s.extraConf());
    assertTrue(s.logToFile());
    assertEquals(ShuffleServiceInstall.none(), s.shuffleService(), "existing users get no shuffle service");
  }

  @Test
  void withersChangeOneThing() {
    Settings s = Settings.in(Path.of("w"))
        .withNodeManagers(3)
        .withNodeResources(2048, 2)
        .withBasePort(21000)
        .withApplicationClasspath(List.of("/a", "/b/*"))
        .withConf("k1", "v1")
        .withConf("k2", "v2")
        .withConf("k1", "v3")
        .withConf(Map.of("k3", "v4"))
        .withLogToFile(false)
        .withStartTimeout(Duration.ofSeconds(5));
    assertEquals(3, s.nodeManagers());
    assertEquals(2048, s.nodeMemoryMb());
    assertEquals(2, s.nodeVcores());
    assertEquals(21000, s.basePort());
    assertEquals(List.of("/a", "/b/*"), s.applicationClasspath());
    assertEquals(Map.of("k1", "v3", "k2", "v2", "k3", "v4"), s.extraConf());
    assertEquals(false, s.logToFile());
    assertEquals(Duration.ofSeconds(5), s.startTimeout());
  }

  @Test
  void kerberosGivesEveryDaemonTheOnePrincipalAndContainersTheKdc() {
    Map<String, String> c = Settings.in(Path.of("w"))
        .withKerberos("hdfs/localhost@EXAMPLE.COM", Path.of("/k/cluster.keytab"), Path.of("/k/krb5.conf")).extraConf();
    assertEquals("kerberos", c.get("hadoop.security.authentication"));
    assertEquals("hdfs/localhost@EXAMPLE.COM", c.get("yarn.resourcemanager.principal"));
    assertEquals("hdfs/localhost@EXAMPLE.COM", c.get("yarn.nodemanager.principal"));
    assertEquals("/k/cluster.keytab", c.get("yarn.resourcemanager.keytab"));
    assertEquals("/k/cluster.keytab", c.get("yarn.nodemanager.keytab"));
    assertEquals("MALLOC_ARENA_MAX=$MALLOC_ARENA_MAX,JAVA_TOOL_OPTIONS=-Djava.security.krb5.conf=/k/krb5.conf",
        c.get("yarn.nodemanager.admin-env"));
  }

  @Test
  void brokenValuesAreRefusedWithTheRuleAndTheValue() {
    Settings s = Settings.in(Path.of("w"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.withNodeManagers(0));
    assertEquals("nodeManagers must be in [1, 254], got 0", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> s.withNodeManagers(255));
    assertThrows(IllegalArgumentException.class, () -> s.withNodeResources(64, 1));
    assertThrows(IllegalArgumentException.class, () -> s.withNodeResources(1024, 0));
    assertThrows(IllegalArgumentException.class, () -> s.withBasePort(80));
    assertThrows(IllegalArgumentException.class, () -> s.withBasePort(65530));
    assertThrows(IllegalArgumentException.class, () -> s.withStartTimeout(Duration.ZERO));
    IllegalArgumentException noJar = assertThrows(IllegalArgumentException.class,
        () -> ShuffleServiceInstall.isolated(Path.of("no-such.jar")));
    assertTrue(noJar.getMessage().contains("build shuffle-aux-service first"), noJar.getMessage());
  }
}
