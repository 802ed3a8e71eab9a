package org.elasticam.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * The shuffle service's shaded jar runs inside the NodeManager's JVM, which on Hadoop 3.1 to 3.3
 * may be Java 8: no class in it may need a newer class-file version. Runs where the jar exists, in
 * a reactor {@code mvn verify} (src-it comes after shuffle-aux-service is packaged).
 */
class ShuffleJarBytecodeTest {

  /** The class-file major version of Java 8. */
  private static final int JAVA_8 = 52;

  @Test
  void everyClassInTheShuffleServiceJarLoadsOnJava8() throws IOException {
    Path jar = packagedJar();
    List<String> tooNew = new ArrayList<>();
    int classes = 0;
    int ours = 0;
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      for (ZipEntry e : Collections.list(zip.entries())) {
        if (e.isDirectory() || !e.getName().endsWith(".class")) {
          continue;
        }
        classes++;
        ours += e.getName().startsWith("org/elasticam/") && !e.getName().startsWith("org/elasticam/shaded/") ? 1 : 0;
        int major = majorVersion(zip, e);
        if (major > JAVA_8) {
          tooNew.add(e.getName() + " (class-file version " + major + ")");
        }
      }
    }
    assertTrue(ours > 50 && classes > ours, jar + " holds " + ours + " classes of ours and " + (classes - ours)
        + " others: not the shaded service jar");
    assertTrue(tooNew.isEmpty(), tooNew.size() + " of " + classes + " classes in " + jar.getFileName()
        + " need a JVM newer than Java 8: " + tooNew.subList(0, Math.min(20, tooNew.size())));
  }

  /** Bytes 6-7 of a class file, after the magic number and the minor version. */
  private static int majorVersion(ZipFile zip, ZipEntry e) throws IOException {
    try (InputStream in = zip.getInputStream(e); DataInputStream data = new DataInputStream(in)) {
      assertEquals(0xCAFEBABE, data.readInt(), e.getName() + " is not a class file");
      data.readUnsignedShort();
      return data.readUnsignedShort();
    }
  }

  /**
   * The jar this build packaged. A plain {@code mvn test} packages nothing: the check is skipped
   * then, rather than run on a jar left by an earlier build from other sources.
   */
  private static Path packagedJar() throws IOException {
    Path classes = Path.of("..", "shuffle-aux-service", "target", "classes");
    Path jar;
    try {
      jar = ShuffleJar.path();
    } catch (IllegalStateException e) {
      jar = null;
    }
    assumeTrue(jar != null, "no shuffle service jar: it is checked in `mvn verify`, after it is packaged");
    FileTime packaged = Files.getLastModifiedTime(jar);
    if (!Files.isDirectory(classes)) {
      return jar;
    }
    try (Stream<Path> files = Files.walk(classes)) {
      assumeTrue(files.filter(Files::isRegularFile).noneMatch(f -> modified(f).compareTo(packaged) > 0),
          jar + " is older than shuffle-aux-service's classes: it is checked in `mvn verify`, after it is packaged");
    }
    return jar;
  }

  private static FileTime modified(Path f) {
    try {
      return Files.getLastModifiedTime(f);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
