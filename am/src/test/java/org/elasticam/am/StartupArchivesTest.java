package org.elasticam.am;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.elasticam.conf.ElasticConf;
import org.elasticam.launcher.yarn.StartupArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which start-up archive the AM and the executors get, and when the user's settings turn it off. */
class StartupArchivesTest {

  @TempDir
  Path tmp;

  /** As the client calls it, with the digest it computed. */
  private static Optional<StartupArchive> forAm(ElasticConf conf, Path jar) throws Exception {
    return StartupArchives.forAm(conf, jar, JarDigest.of(jar));
  }

  private Path jar(String content) throws Exception {
    Path jar = tmp.resolve("elasticam.jar");
    Files.writeString(jar, content);
    return jar;
  }

  @Test
  void theAmsArchiveIsNamedByTheSameBuildAsTheExecutorsAndFoundUnderTheAmsNameForTheJar() throws Exception {
    Path jar = jar("a build");
    StartupArchive am = forAm(ElasticConf.of(Map.of()), jar).orElseThrow();
    StartupArchive executors = StartupArchives.forApplication(ElasticConf.of(Map.of()), jar).orElseThrow();
    assertEquals(executors.jarDigest(), am.jarDigest(), "one directory per build for both");
    assertEquals(AmFiles.APP_JAR, am.appJar(), "the jar as the AM's container links it");
    assertEquals(Optional.empty(), am.baseDir());
    assertEquals(Optional.of("/data/archives"), forAm(
        ElasticConf.of(Map.of("elasticam.executor.startupArchive.dir", "/data/archives")), jar).orElseThrow().baseDir());
  }

  @Test
  void theAmStartsWithoutOneWhenTurnedOffOrWhenTheUserChoseTheFirstClasspathEntryOrClassSharing() throws Exception {
    Path jar = jar("a build");
    assertTrue(forAm(ElasticConf.of(Map.of("elasticam.yarn.am.startupArchive.enabled", "false")), jar)
        .isEmpty());
    assertTrue(forAm(ElasticConf.of(Map.of("elasticam.yarn.am.extraClassPath", "/opt/first.jar")), jar)
        .isEmpty());
    assertTrue(forAm(ElasticConf.of(Map.of("elasticam.yarn.am.extraJavaOptions",
        "-Xlog:gc -XX:SharedArchiveFile=/tmp/mine.jsa")), jar).isEmpty());
    // The executors' settings are theirs alone.
    assertTrue(forAm(ElasticConf.of(Map.of("elasticam.executor.startupArchive.enabled", "false",
        "elasticam.executor.extraClassPath", "/opt/x.jar")), jar).isPresent());
    assertTrue(forAm(ElasticConf.of(Map.of("elasticam.yarn.am.extraJavaOptions", "-Xlog:gc")), jar)
        .isPresent());
  }

  @Test
  void theDigestTheClientSaidNamesTheExecutorsArchiveWithoutReadingTheJar() throws Exception {
    Path jar = jar("a build");
    String computed = StartupArchives.forApplication(ElasticConf.of(Map.of()), jar).orElseThrow().jarDigest();
    assertEquals(computed, StartupArchives.forApplication(ElasticConf.of(Map.of()), jar, Optional.of(computed))
        .orElseThrow().jarDigest());
    Path gone = tmp.resolve("not-there.jar");
    assertEquals("00112233445566778899aabbccddeeff", StartupArchives.forApplication(ElasticConf.of(Map.of()), gone,
        Optional.of("00112233445566778899aabbccddeeff")).orElseThrow().jarDigest(), "the jar is not read");
    assertTrue(StartupArchives.forApplication(ElasticConf.of(Map.of()), gone).isEmpty(), "without it, it must be");
  }

  @Test
  void anotherBuildOfTheJarIsAnotherArchive() throws Exception {
    Path jar = jar("a build");
    String first = forAm(ElasticConf.of(Map.of()), jar).orElseThrow().jarDigest();
    Files.writeString(jar, "another build, longer");
    assertNotEquals(first, forAm(ElasticConf.of(Map.of()), jar).orElseThrow().jarDigest());
  }
}
