package org.elasticam.am;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.elasticam.conf.ConfigKey;
import org.elasticam.conf.ElasticConf;
import org.elasticam.conf.ExecutorKeys;
import org.elasticam.conf.JavaOptions;
import org.elasticam.conf.YarnKeys;
import org.elasticam.launcher.yarn.StartupArchive;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether this application's executors, and its AM, start from their node's start-up archive, and
 * which one; and whether executors start with a short classpath, the cluster's jars added once
 * registered.
 */
public final class StartupArchives {

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
    return forApplication(elastic, appJar, Optional.empty());
  }

  /** @param digest the jar's digest where the client said it, so the jar need not be read again */
  static Optional<StartupArchive> forApplication(ElasticConf elastic, Path appJar, Optional<String> digest) {
    return choose(elastic, "Executors start", ExecutorKeys.STARTUP_ARCHIVE_ENABLED, ExecutorKeys.EXTRA_CLASS_PATH,
        ExecutorKeys.EXTRA_JAVA_OPTIONS, appJar, appJar.getFileName().toString(), digest);
  }

  /**
   * The AM's own archive, chosen by the client when it writes the AM's launch command: beside the
   * executors' in the directory of this build of our jar.
   *
   * @param appJar our jar on the client's machine, the same content the AM's container localizes
   * @param digest its {@link JarDigest}, which the client has computed already
   */
  public static Optional<StartupArchive> forAm(ElasticConf elastic, Path appJar, String digest) {
    return choose(elastic, "The AM starts", YarnKeys.AM_STARTUP_ARCHIVE_ENABLED, YarnKeys.AM_EXTRA_CLASS_PATH,
        YarnKeys.AM_EXTRA_JAVA_OPTIONS, appJar, AmFiles.APP_JAR, Optional.of(digest));
  }

  private static Optional<StartupArchive> choose(ElasticConf elastic, String who, ConfigKey<Boolean> enabled,
      ConfigKey<String> extraClassPath, ConfigKey<String> extraJavaOptions, Path appJar, String jarInContainer,
      Optional<String> digest) {
    if (!elastic.get(enabled)) {
      LOG.info("{} without a start-up archive: {} is false", who, enabled.name());
      return Optional.empty();
    }
    if (elastic.getOptional(extraClassPath).filter(s -> !s.isBlank()).isPresent()) {
      // The archive's jar goes first on the classpath; the user's entries were promised that place.
      LOG.info("{} without a start-up archive: {} is set, and its entries come first", who, extraClassPath.name());
      return Optional.empty();
    }
    for (String option : JavaOptions.split(elastic.getOptional(extraJavaOptions).orElse(""))) {
      if (SHARING_OPTIONS.stream().anyMatch(option::contains)) {
        LOG.info("{} without a start-up archive: {} chooses class sharing itself ({})", who, extraJavaOptions.name(),
            option);
        return Optional.empty();
      }
    }
    try {
      return Optional.of(new StartupArchive(elastic.getOptional(ExecutorKeys.STARTUP_ARCHIVE_DIR)
          .filter(s -> !s.isBlank()), digest.isPresent() ? digest.get() : JarDigest.of(appJar), jarInContainer));
    } catch (IOException e) {
      LOG.warn("{} without a start-up archive: could not read {}: {}", who, appJar, e.toString());
      return Optional.empty();
    }
  }
}
