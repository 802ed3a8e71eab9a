package org.elasticam.am.client;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Optional;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.LocalResourceVisibility;
import org.elasticam.am.JarDigest;
import org.elasticam.am.StagingResources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Our jar on fs.defaultFS once per build rather than once per application: {@code <dir>/<digest>.jar},
 * localized with PRIVATE visibility. A NodeManager keeps a PRIVATE resource in the user's file cache
 * across applications (until its cache outgrows {@code yarn.nodemanager.localizer.cache.target-size-mb}),
 * so the next application's AM container, and its first executor on every node that ran one of the
 * user's applications before, start without downloading the jar again, and the client does not upload
 * it again.
 *
 * <p>A file here is never changed once it has its name: the NodeManager refuses a resource whose
 * time changed since the submission, and running applications keep localizing it. So it is written
 * under a name of its own and renamed without overwriting; a client that finds a file of another
 * size under the name (not ours, or cut short by hand) leaves it alone and uploads with the
 * application instead. Nothing here is deleted automatically: an application that runs for weeks
 * may still start containers from an old build (docs/operations.md says how to clean up).
 */
final class AppJarCache {

  private static final Logger LOG = LoggerFactory.getLogger(AppJarCache.class);

  private AppJarCache() {}

  /**
   * The cached copy of {@code jar} in {@code dir}, uploaded first when it is not there yet; empty
   * when the directory holds another file under its name (the caller then uploads the jar with the
   * application).
   *
   * @param digest the jar's {@link JarDigest}, which names its copy in the cache
   * @param uploader names the temporary file, so that two clients never write the same one
   */
  static Optional<LocalResource> stage(FileSystem fs, Path dir, java.nio.file.Path jar, String digest,
      String uploader) {
    try {
      return cached(fs, dir, jar, digest, uploader);
    } catch (IOException e) {
      // A file system without FileContext support, a quota, a permission: the cache is an
      // optimisation, and the application's own staging directory still works.
      LOG.warn("Could not use the jar cache in {} ({}); the jar is uploaded with this application instead", dir,
          e.toString());
      return Optional.empty();
    }
  }

  private static Optional<LocalResource> cached(FileSystem fs, Path dir, java.nio.file.Path jar, String digest,
      String uploader) throws IOException {
    long size = Files.size(jar);
    Path cached = new Path(dir, digest + ".jar");
    Optional<FileStatus> found = status(fs, cached);
    if (found.isEmpty()) {
      fs.mkdirs(dir, new FsPermission((short) 0700));
      Path temp = new Path(dir, "." + cached.getName() + "." + uploader + ".tmp");
      try {
        fs.copyFromLocalFile(false, true, new Path(jar.toAbsolutePath().toUri()), temp);
        FileContext.getFileContext(fs.getUri(), fs.getConf()).rename(temp, cached, Options.Rename.NONE);
        LOG.info("Uploaded {} to {}: applications submitted with this build share it", jar.getFileName(), cached);
      } catch (FileAlreadyExistsException e) {
        // Another client uploaded the same build meanwhile: its copy is as good as ours.
      } finally {
        fs.delete(temp, false);
      }
      found = status(fs, cached);
    }
    if (found.isEmpty() || found.get().getLen() != size) {
      LOG.warn("{} is not a copy of {} ({}); the jar is uploaded with this application instead", cached, jar,
          found.isEmpty() ? "it disappeared" : found.get().getLen() + " bytes, not " + size);
      return Optional.empty();
    }
    return Optional.of(StagingResources.resource(fs, found.get(), LocalResourceVisibility.PRIVATE));
  }

  private static Optional<FileStatus> status(FileSystem fs, Path p) throws IOException {
    try {
      return Optional.of(fs.getFileStatus(p));
    } catch (java.io.FileNotFoundException e) {
      return Optional.empty();
    }
  }
}
