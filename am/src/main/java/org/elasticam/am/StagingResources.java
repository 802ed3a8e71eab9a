package org.elasticam.am;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.LocalResourceType;
import org.apache.hadoop.yarn.api.records.LocalResourceVisibility;
import org.apache.hadoop.yarn.api.records.URL;

/**
 * The files a submission staged on fs.defaultFS, as YARN local resources: size and timestamp come
 * from the file system, which is how the NodeManager verifies what it downloads.
 */
public final class StagingResources {

  private final Map<String, LocalResource> executorResources;

  private StagingResources(Map<String, LocalResource> executorResources) {
    this.executorResources = Map.copyOf(executorResources);
  }

  /** Executors get the app jar, and the user jar for user jobs. */
  public static StagingResources read(Configuration conf, String stagingDir, boolean withUserJar) throws IOException {
    Path dir = new Path(stagingDir);
    FileSystem fs = dir.getFileSystem(conf);
    Map<String, LocalResource> m = new HashMap<>();
    m.put(AmFiles.APP_JAR, resource(fs, new Path(dir, AmFiles.APP_JAR)));
    if (withUserJar) {
      m.put(AmFiles.USER_JAR, resource(fs, new Path(dir, AmFiles.USER_JAR)));
    }
    return new StagingResources(m);
  }

  /** A local resource for a file already on {@code fs}. */
  public static LocalResource resource(FileSystem fs, Path file) throws IOException {
    FileStatus st = fs.getFileStatus(file);
    return LocalResource.newInstance(URL.fromPath(fs.makeQualified(file)), LocalResourceType.FILE,
        LocalResourceVisibility.APPLICATION, st.getLen(), st.getModificationTime());
  }

  public Map<String, LocalResource> executorResources() {
    return executorResources;
  }
}
