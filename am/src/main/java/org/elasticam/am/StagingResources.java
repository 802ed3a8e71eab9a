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

  /**
   * Executors get the app jar, and the user jar for user jobs.
   *
   * @param appJar our jar where the client staged it; null: in the staging directory. One outside it
   *     is the user's copy for every application of this build (the client's jar cache), which
   *     NodeManagers keep across applications: PRIVATE, as the client gave it to the AM's container.
   */
  public static StagingResources read(Configuration conf, String stagingDir, String appJar, boolean withUserJar)
      throws IOException {
    Path dir = new Path(stagingDir);
    FileSystem fs = dir.getFileSystem(conf);
    Map<String, LocalResource> m = new HashMap<>();
    Path jar = appJar == null ? new Path(dir, AmFiles.APP_JAR) : new Path(appJar);
    boolean staged = fs.makeQualified(dir).equals(fs.makeQualified(jar).getParent());
    m.put(AmFiles.APP_JAR, resource(fs, jar, staged ? LocalResourceVisibility.APPLICATION
        : LocalResourceVisibility.PRIVATE));
    if (withUserJar) {
      m.put(AmFiles.USER_JAR, resource(fs, new Path(dir, AmFiles.USER_JAR)));
    }
    return new StagingResources(m);
  }

  /** A local resource of this application for a file already on {@code fs}. */
  public static LocalResource resource(FileSystem fs, Path file) throws IOException {
    return resource(fs, file, LocalResourceVisibility.APPLICATION);
  }

  private static LocalResource resource(FileSystem fs, Path file, LocalResourceVisibility visibility)
      throws IOException {
    return resource(fs, fs.getFileStatus(file), visibility);
  }

  /** A local resource for the file {@code st} describes: its size and time are what the NodeManager checks. */
  public static LocalResource resource(FileSystem fs, FileStatus st, LocalResourceVisibility visibility) {
    return LocalResource.newInstance(URL.fromPath(fs.makeQualified(st.getPath())), LocalResourceType.FILE, visibility,
        st.getLen(), st.getModificationTime());
  }

  public Map<String, LocalResource> executorResources() {
    return executorResources;
  }
}
