package org.elasticam.am.recovery;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.EnumSet;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;

/**
 * Small files in the staging directory that must never be seen half-written nor missing: each is
 * written to a temporary name and renamed over the old one in one step. HDFS's rename with
 * OVERWRITE is that step. Hadoop's local file system is not: its FileContext rename deletes the
 * old file and then renames, so a reader (or an AM killed in between) finds no file at all. On a
 * {@code file:} staging directory the rename is therefore the operating system's own, rename(2),
 * which replaces atomically.
 */
final class StagingFiles {

  /** Larger than any journal we write; a bigger file is not ours. */
  static final int MAX_BYTES = 64 << 20;

  private final FileContext fc;
  private final Path dir;

  StagingFiles(Configuration conf, String stagingDir) throws IOException {
    this.dir = new Path(stagingDir);
    this.fc = FileContext.getFileContext(dir.toUri(), conf);
  }

  Path path(String name) {
    return fc.makeQualified(new Path(dir, name));
  }

  /**
   * Never makes the directory: the client made it, readable by the user alone, and one removed at
   * the application's end must stay removed.
   */
  void replace(String name, byte[] content) throws IOException {
    if ("file".equals(path(name).toUri().getScheme())) {
      replaceLocal(name, content);
      return;
    }
    Path tmp = new Path(dir, "." + name + ".tmp");
    try (OutputStream out = fc.create(tmp, EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE),
        Options.CreateOpts.donotCreateParent())) {
      out.write(content);
    }
    fc.rename(tmp, new Path(dir, name), Options.Rename.OVERWRITE);
  }

  /**
   * Written without Hadoop's checksum file: a .crc beside the file would be a second file to
   * replace, and could never be replaced in the same step.
   */
  private void replaceLocal(String name, byte[] content) throws IOException {
    java.nio.file.Path target = java.nio.file.Path.of(path(name).toUri());
    java.nio.file.Path tmp = target.resolveSibling("." + name + ".tmp");
    try {
      // Makes the file, never its directory: a directory removed at the application's end stays removed.
      java.nio.file.Files.write(tmp, content);
      java.nio.file.Files.move(tmp, target, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new FileNotFoundException(e.getMessage());
    }
  }

  /** The file's bytes; empty when it does not exist. */
  Optional<byte[]> read(String name) throws IOException {
    Path p = new Path(dir, name);
    try {
      long len = fc.getFileStatus(p).getLen();
      if (len > MAX_BYTES) {
        throw new IOException(p + " is " + len + " bytes, more than any journal we write");
      }
      try (InputStream in = fc.open(p)) {
        return Optional.of(in.readNBytes((int) len));
      }
    } catch (FileNotFoundException e) {
      return Optional.empty();
    }
  }
}
