package org.elasticam.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.elasticam.embedded.EmbeddedCluster.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterConfTest {

  @TempDir
  Path work;

  @Test
  void nodeManagerIGetsItsOwnLoopbackAddressFixedPortsAndDirectories() {
    Settings s = Settings.in(work).withNodeManagers(3);
    NodeAddress a = NodeAddress.of(1, 21000);
    YarnConfiguration nm = ClusterConf.nodeManager(ClusterConf.shared(s), s, a);

    assertEquals("127.0.0.2", nm.get("yarn.nodemanager.hostname"));
    assertEquals("127.0.0.2:21010", nm.get(YarnConfiguration.NM_ADDRESS));
    assertEquals("127.0.0.2:21011", nm.get(YarnConfiguration.NM_LOCALIZER_ADDRESS));
    assertEquals("127.0.0.2:21012", nm.get(YarnConfiguration.NM_WEBAPP_ADDRESS));
    assertEquals(work.resolve("nm-1/local").toString(), nm.get(YarnConfiguration.NM_LOCAL_DIRS));
    assertEquals(work.resolve("nm-1/logs").toString(), nm.get(YarnConfiguration.NM_LOG_DIRS));
    assertEquals(work.resolve("nm-1/recovery").toString(), nm.get(YarnConfiguration.NM_RECOVERY_DIR));
    assertEquals(ClusterFiles.confDir(s).toString(), nm.get(EmbeddedContainerExecutor.SITE_DIR),
        "its localizer reads the cluster's site files");
  }

  @Test
  void nodeManagersRecoverUnderSupervisionAndPassJavaHomeThrough() {
    Settings s = Settings.in(work).withNodeResources(2048, 3);
    YarnConfiguration nm = ClusterConf.nodeManager(ClusterConf.shared(s), s, NodeAddress.of(0, 21000));

    assertTrue(nm.getBoolean(YarnConfiguration.NM_RECOVERY_ENABLED, false));
    assertTrue(nm.getBoolean(YarnConfiguration.NM_RECOVERY_SUPERVISED, false));
    assertEquals(EmbeddedContainerExecutor.class.getName(), nm.get(YarnConfiguration.NM_CONTAINER_EXECUTOR));
    assertTrue(List.of(nm.getTrimmedStrings(YarnConfiguration.NM_ENV_WHITELIST)).contains("JAVA_HOME"));
    assertFalse(nm.getBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, true));
    assertEquals(2048, nm.getInt(YarnConfiguration.NM_PMEM_MB, 0));
    assertEquals(3, nm.getInt(YarnConfiguration.NM_VCORES, 0));
    assertEquals(work.resolve("tmp").toString(), nm.get("hadoop.tmp.dir"));
  }

  @Test
  void extraConfWinsAndTheClasspathIsSetOnlyWhenGiven() {
    Settings s = Settings.in(work).withConf(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, "256");
    assertEquals("256", ClusterConf.shared(s).get(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB));
    assertNull(ClusterConf.shared(s).get(YarnConfiguration.YARN_APPLICATION_CLASSPATH));

    Settings withCp = s.withApplicationClasspath(List.of("/hadoop/conf", "/lib/*"));
    // The cluster's own conf dir comes first: containers find the ResourceManager through it.
    assertEquals(work.resolve("conf").toAbsolutePath() + ",/hadoop/conf,/lib/*",
        ClusterConf.shared(withCp).get(YarnConfiguration.YARN_APPLICATION_CLASSPATH));
  }

  @Test
  void theClientSiteCarriesTheStartedResourceManagersAddressesAndNoDefaults() {
    Configuration rm = new Configuration(false);
    rm.set(YarnConfiguration.RM_ADDRESS, "localhost:40001");
    rm.set(YarnConfiguration.RM_SCHEDULER_ADDRESS, "localhost:40002");
    rm.set(YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS, "localhost:40003");
    rm.set(YarnConfiguration.RM_ADMIN_ADDRESS, "localhost:40004");
    rm.set(YarnConfiguration.RM_WEBAPP_ADDRESS, "localhost:40005");
    Configuration site = ClusterConf.clientSite(ClusterConf.shared(Settings.in(work)), rm);

    assertEquals("localhost:40002", site.get(YarnConfiguration.RM_SCHEDULER_ADDRESS));
    assertNull(site.get(YarnConfiguration.NM_ENV_WHITELIST), "a default leaked into the client site");
    assertEquals("localhost:40001", ClusterConf.client(site).get(YarnConfiguration.RM_ADDRESS));
  }

  @Test
  void yarnKeysGoToYarnSiteAndTheRestToCoreSite() throws Exception {
    Configuration site = new Configuration(false);
    site.set("yarn.resourcemanager.address", "localhost:40001");
    site.set("hadoop.tmp.dir", "/w/tmp");
    ClusterFiles.writeClientConf(site, work);

    Configuration yarn = new Configuration(false);
    yarn.addResource(new org.apache.hadoop.fs.Path(work.resolve("yarn-site.xml").toUri()));
    Configuration core = new Configuration(false);
    core.addResource(new org.apache.hadoop.fs.Path(work.resolve("core-site.xml").toUri()));
    assertEquals("localhost:40001", yarn.get("yarn.resourcemanager.address"));
    assertNull(yarn.get("hadoop.tmp.dir"));
    assertEquals("/w/tmp", core.get("hadoop.tmp.dir"));
    assertNull(core.get("yarn.resourcemanager.address"));
    assertFalse(Files.exists(work.resolve("yarn-site.xml.tmp")));
  }

  @Test
  void theShuffleServiceIsConfiguredAsTheReadmeSaysOnlyWhenAsked() throws Exception {
    Settings plain = Settings.in(work);
    YarnConfiguration none = ClusterConf.nodeManager(ClusterConf.shared(plain), plain, NodeAddress.of(0, 21000));
    assertNull(none.get(YarnConfiguration.NM_AUX_SERVICES));

    Path jar = Files.createFile(work.resolve("elasticam-shuffle-test.jar"));
    Settings isolated = Settings.in(work).withShuffleService(ShuffleServiceInstall.isolated(jar))
        .withConf(YarnConfiguration.NM_AUX_SERVICES, "other");
    YarnConfiguration nm = ClusterConf.nodeManager(ClusterConf.shared(isolated), isolated, NodeAddress.of(1, 21000));
    assertEquals("other,elasticam_shuffle", nm.get(YarnConfiguration.NM_AUX_SERVICES));
    assertEquals("org.elasticam.shuffle.service.ElasticamShuffleService",
        nm.get("yarn.nodemanager.aux-services.elasticam_shuffle.class"));
    assertEquals(jar.toString(), nm.get("yarn.nodemanager.aux-services.elasticam_shuffle.classpath"));
    assertEquals("21013", nm.get("elasticam.shuffle.port"));
    assertEquals("127.0.0.2", nm.get("elasticam.shuffle.host"));
    assertEquals("ElasticamShuffle-nm1", nm.get("elasticam.shuffle.metricsName"));

    Settings cp = Settings.in(work).withShuffleService(ShuffleServiceInstall.onClasspath(jar));
    YarnConfiguration onCp = ClusterConf.nodeManager(ClusterConf.shared(cp), cp, NodeAddress.of(0, 21000));
    assertEquals("elasticam_shuffle", onCp.get(YarnConfiguration.NM_AUX_SERVICES));
    assertNull(onCp.get("yarn.nodemanager.aux-services.elasticam_shuffle.classpath"));
  }

  @Test
  void containersGetThisJavaHomeWhenTheProcessHasNone() {
    String expected = System.getenv("JAVA_HOME") != null ? System.getenv("JAVA_HOME") : System.getProperty("java.home");
    EmbeddedContainerExecutor executor = new EmbeddedContainerExecutor();
    assertEquals(expected, executor.getNMEnvVar("JAVA_HOME"));
    assertEquals(System.getenv("PATH"), executor.getNMEnvVar("PATH"));
  }
}
