package org.elasticam.am.client;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.elasticam.report.HistoryMain;

/**
 * Event logs for {@code history}: a plain path or a {@code file:} URI is a local file; any other URI
 * ({@code hdfs://…}, {@code s3a://…}) is read through its Hadoop file system.
 */
final class HadoopEventLogs implements HistoryMain.EventLogs {

  private final Configuration conf;

  HadoopEventLogs(Configuration conf) {
    this.conf = conf;
  }

  @Override
  public InputStream open(String location) throws IOException {
    if (localFile(location).isPresent()) {
      return HistoryMain.LOCAL.open(location);
    }
    Path p = new Path(location);
    FileSystem fs = p.getFileSystem(conf);
    if (fs instanceof LocalFileSystem local) {
      fs = local.getRawFileSystem();
    }
    if (!fs.exists(p)) {
      throw new NoSuchFileException(location);
    }
    return fs.open(p);
  }

  @Override
  public Optional<java.nio.file.Path> localFile(String location) {
    return org.elasticam.report.LocalFiles.of(location);
  }
}
