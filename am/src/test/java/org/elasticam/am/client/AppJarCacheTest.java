package org.elasticam.am.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.LocalResourceVisibility;
import org.elasticam.am.JarDigest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Our jar staged once per build on a real (local) Hadoop file system. */
class AppJarCacheTest {

  @TempDir
  java.nio.file.Path tmp;

  private FileSystem fs;
  private Path cacheDir;
  private java.nio.file.Path jar;

  @BeforeEach
  void setUp() throws Exception {
    fs = FileSystem.getLocal(new Configuration());
    cacheDir = new Path(tmp.resolve("staging/jars").toUri());
    jar = Files.write(tmp.resolve("elasticam.jar"), "the bytes of one build".getBytes());
  }

  @Test
  void theFirstApplicationUploadsTheJarAndTheNextOnesGetTheSameFile() throws Exception {
    LocalResource first = stage(fs, "application_1_0001").orElseThrow();
    Path cached = new Path(cacheDir, JarDigest.of(jar) + ".jar");
    assertEquals(fs.makeQualified(cached).toUri().getPath(), first.getResource().getFile());
    assertEquals(LocalResourceVisibility.PRIVATE, first.getVisibility());
    assertEquals(Files.size(jar), first.getSize());
    // An upload would give the file a new time, and a running application's containers then could
    // not localize it: the next submissions must find the file as it is.
    fs.setTimes(cached, 1_000_000_000_000L, -1);

    LocalResource second = stage(fs, "application_1_0002").orElseThrow();

    assertEquals(first.getResource(), second.getResource());
    assertEquals(1_000_000_000_000L, second.getTimestamp());
    assertEquals(List.of(cached.getName()), visibleNames());
  }

  @Test
  void anotherBuildIsAnotherFile() throws Exception {
    LocalResource first = stage(fs, "application_1_0001").orElseThrow();
    Files.write(jar, "the bytes of the next build".getBytes());

    LocalResource next = stage(fs, "application_1_0002").orElseThrow();

    assertNotEquals(first.getResource(), next.getResource());
    assertEquals(Files.size(jar), next.getSize());
    assertEquals(2, visibleNames().size());
    try (var in = fs.open(new Path(cacheDir, JarDigest.of(jar) + ".jar"))) {
      assertEquals("the bytes of the next build", new String(in.readAllBytes()));
    }
  }

  @Test
  void aFileOfAnotherSizeUnderTheNameIsLeftAloneAndTheJarGoesWithTheApplication() throws Exception {
    Path cached = new Path(cacheDir, JarDigest.of(jar) + ".jar");
    try (var out = fs.create(cached)) {
      out.write("cut short".getBytes());
    }

    Optional<LocalResource> r = stage(fs, "application_1_0001");

    assertTrue(r.isEmpty());
    try (var in = fs.open(cached)) {
      assertEquals("cut short", new String(in.readAllBytes()));
    }
  }

  @Test
  void aCopyAnotherClientRenamedFirstIsKeptAndTheTemporaryOneRemoved() throws Exception {
    // What a client finds when another finished uploading the same build between its look and its rename.
    Path cached = new Path(cacheDir, JarDigest.of(jar) + ".jar");
    fs.copyFromLocalFile(new Path(jar.toUri()), cached);
    fs.setTimes(cached, 1_000_000_000_000L, -1);
    FileSystem racing = new org.apache.hadoop.fs.FilterFileSystem(fs) {
      private boolean looked;

      @Override
      public FileStatus getFileStatus(Path p) throws java.io.IOException {
        if (!looked && p.getName().equals(cached.getName())) {
          looked = true;
          throw new java.io.FileNotFoundException(p.toString());
        }
        return super.getFileStatus(p);
      }
    };

    LocalResource r = stage(racing, "application_1_0002").orElseThrow();

    assertEquals(1_000_000_000_000L, r.getTimestamp());
    assertEquals(List.of(cached.getName()), visibleNames());
  }

  @Test
  void aCacheThatCannotBeWrittenLeavesTheJarToTheApplication() throws Exception {
    // The staging directory's place is taken by a file, so nothing can be made below it.
    Files.createDirectories(tmp.resolve("staging").getParent());
    Files.write(tmp.resolve("staging"), "not a directory".getBytes());

    Optional<LocalResource> r = stage(fs, "application_1_0001");

    assertTrue(r.isEmpty());
  }

  /** The cache directory's files, but for checksum files of the local file system. */
  /** As the client stages it: with the digest of the jar as it is now. */
  private Optional<LocalResource> stage(FileSystem on, String app) throws Exception {
    return AppJarCache.stage(on, cacheDir, jar, JarDigest.of(jar), app);
  }

  private List<String> visibleNames() throws Exception {
    return Arrays.stream(fs.listStatus(cacheDir)).map(s -> s.getPath().getName())
        .filter(n -> !n.endsWith(".crc")).sorted().collect(Collectors.toList());
  }
}
