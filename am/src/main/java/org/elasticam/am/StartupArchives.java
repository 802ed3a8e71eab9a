package org.elasticam.am;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.elasticam.conf.ElasticConf;
import org.elasticam.conf.ExecutorKeys;
import org.elasticam.conf.JavaOptions;
import org.elasticam.launcher.yarn.StartupArchive;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this application's executors start from their node's start-up archive, and which one;
 * and whether they start with a short classpath, the cluster's jars added once registered.
 */
final class StartupArchives {

  private static final Logger LOG = LoggerFactory.getLogger(StartupArchives.class);

  /** JVM options that choose class sharing themselves: the user's choice wins over the archive. */
  private static final List<String> SHARING_OPTIONS = List.of("-Xshare", "SharedArchiveFile", "ArchiveClassesAtExit",
      "SharedClassListFile", "DumpLoadedClassList", "UseSharedSpaces", "AutoCreateSharedArchive");

  private StartupArchives() {}

  /** Our jar's name in the executors' directory, to run as their classpath agent; empty: off. */
  static Optional<String> classPathAgent(ElasticConf elastic) {
    if (!elastic.get(ExecutorKeys.STARTUP_CLASS_PATH_ENABLED)) {
      LOG.info("Executors start with the whole classpath: {} is false", ExecutorKeys.STARTUP_CLASS_PATH_ENABLED.name());
      return Optional.empty();
    }
    if (elastic.getOptional(ExecutorKeys.EXTRA_CLASS_PATH).filter(s -> !s.isBlank()).isPresent()) {
      // The user's entries were promised the first place, for classes a task or logging may look up at once.
      LOG.info("Executors start with the whole classpath: {} is set", ExecutorKeys.EXTRA_CLASS_PATH.name());
      return Optional.empty();
    }
    return Optional.of(AmFiles.APP_JAR);
  }

  /**
   * @param appJar our jar as this container localized it: the executors' copy has the same content,
   *     so its digest names the archive every application submitted with this jar shares
   */
  static Optional<StartupArchive> forApplication(ElasticConf elastic, Path appJar) {
    if (!elastic.get(ExecutorKeys.STARTUP_ARCHIVE_ENABLED)) {
      LOG.info("Executors start without a start-up archive: {} is false", ExecutorKeys.STARTUP_ARCHIVE_ENABLED.name());
      return Optional.empty();
    }
    if (elastic.getOptional(ExecutorKeys.EXTRA_CLASS_PATH).filter(s -> !s.isBlank()).isPresent()) {
      // The archive's jar goes first on the classpath; the user's entries were promised that place.
      LOG.info("Executors start without a start-up archive: {} is set, and its entries come first",
          ExecutorKeys.EXTRA_CLASS_PATH.name());
      return Optional.empty();
    }
    for (String option : JavaOptions.split(elastic.getOptional(ExecutorKeys.EXTRA_JAVA_OPTIONS).orElse(""))) {
      if (SHARING_OPTIONS.stream().anyMatch(option::contains)) {
        LOG.info("Executors start without a start-up archive: {} chooses class sharing itself ({})",
            ExecutorKeys.EXTRA_JAVA_OPTIONS.name(), option);
        return Optional.empty();
      }
    }
    try {
      return Optional.of(new StartupArchive(elastic.getOptional(ExecutorKeys.STARTUP_ARCHIVE_DIR)
          .filter(s -> !s.isBlank()), JarDigest.of(appJar), appJar.getFileName().toString()));
    } catch (IOException e) {
      LOG.warn("Executors start without a start-up archive: could not read {}: {}", appJar, e.toString());
      return Optional.empty();
    }
  }
}
