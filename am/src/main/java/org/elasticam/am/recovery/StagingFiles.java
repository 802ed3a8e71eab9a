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
 * Small files in the staging directory that must never be seen half-written: each is written to a
 * temporary name and renamed over the old one, which HDFS and the local file system both do
 * atomically.
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
    Path tmp = new Path(dir, "." + name + ".tmp");
    try (OutputStream out = fc.create(tmp, EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE),
        Options.CreateOpts.donotCreateParent())) {
      out.write(content);
    }
    fc.rename(tmp, new Path(dir, name), Options.Rename.OVERWRITE);
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
