package org.elasticam.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.elasticam.api.TaskSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileInputsTest {

  @TempDir
  Path dir;

  private final Configuration conf = new Configuration();

  @AfterEach
  void forgetWorkingDir() {
    System.clearProperty(JobPaths.WORKING_DIR_PROPERTY);
  }

  @Test
  void aDirectoryIsItsVisibleFilesInPathOrderHiddenAndEmptyOnesSkipped() throws IOException {
    write("in/b.txt", 10);
    write("in/a.txt", 5);
    write("in/sub/c.txt", 3);
    write("in/_logs/x.txt", 3);
    write("in/.hidden", 3);
    write("in/empty.txt", 0);
    List<FileSplit> splits = FileInputs.of(dir.resolve("in").toString()).conf(conf).splits();
    assertEquals(List.of("a.txt", "b.txt", "c.txt"), splits.stream().map(s -> name(s.path())).toList());
    assertEquals(List.of(5L, 10L, 3L), splits.stream().map(FileSplit::length).toList());
  }

  @Test
  void splitsCoverEachFileWithoutASliverAtTheEnd() throws IOException {
    write("f", 1050);
    write("g", 1200);
    List<FileSplit> splits = FileInputs.of(dir.resolve("f").toString(), dir.resolve("g").toString()).conf(conf)
        .splitBytes(500).splits();
    // 1050 = 500 + 550 (the last 550 is within 10 % of 500); 1200 = 500 + 500 + 200.
    assertEquals(List.of("f@0+500", "f@500+550", "g@0+500", "g@500+500", "g@1000+200"),
        splits.stream().map(s -> name(s.path()) + "@" + s.start() + "+" + s.length()).toList());
  }

  @Test
  void aGlobMatchesFilesAndEachTaskCarriesItsSplitAndTheGivenParameters() throws IOException {
    write("x-1.csv", 4);
    write("x-2.csv", 4);
    write("y.csv", 4);
    List<TaskSpec> specs = FileInputs.of(dir.resolve("x-*.csv").toString()).conf(conf).param("side", "left")
        .taskSpecs();
    assertEquals(2, specs.size());
    FileSplit first = FileSplit.of(specs.get(0).params());
    assertEquals("x-1.csv", name(first.path()));
    assertEquals("left", specs.get(0).params().get("side"));
    assertTrue(first.path().startsWith("file:/"), "qualified: " + first.path());
  }

  @Test
  void aRelativePathResolvesAgainstTheSubmittersWorkingDirectory() throws IOException {
    write("rel/data.txt", 7);
    System.setProperty(JobPaths.WORKING_DIR_PROPERTY, dir.toUri().toString());
    List<FileSplit> splits = FileInputs.of("rel").conf(conf).splits();
    assertEquals(dir.resolve("rel/data.txt").toUri().getPath(), java.net.URI.create(splits.get(0).path()).getPath());
  }

  @Test
  void aMissingInputOrOneWithoutDataIsOneLineForTheUser() throws IOException {
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
        () -> FileInputs.of(dir.resolve("nope").toString()).conf(conf).taskSpecs());
    assertTrue(missing.getMessage().startsWith("the input file:") && missing.getMessage().endsWith("nope does not exist"),
        missing.getMessage());
    IllegalArgumentException noMatch = assertThrows(IllegalArgumentException.class,
        () -> FileInputs.of(dir.resolve("*.none").toString()).conf(conf).taskSpecs());
    assertTrue(noMatch.getMessage().endsWith("matches no files"), noMatch.getMessage());
    write("empty/e.txt", 0);
    IllegalArgumentException empty = assertThrows(IllegalArgumentException.class,
        () -> FileInputs.of(dir.resolve("empty").toString()).conf(conf).taskSpecs());
    assertTrue(empty.getMessage().endsWith("holds no data"), empty.getMessage());
  }

  private void write(String name, int bytes) throws IOException {
    Path f = dir.resolve(name);
    Files.createDirectories(f.getParent());
    Files.write(f, "abcdefghi\n".repeat(bytes / 10 + 1).substring(0, bytes).getBytes());
  }

  private static String name(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }
}
