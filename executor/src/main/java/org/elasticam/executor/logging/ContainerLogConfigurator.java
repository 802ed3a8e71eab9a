package org.elasticam.executor.logging;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Properties;
import org.apache.log4j.ConsoleAppender;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.RollingFileAppender;
import org.apache.log4j.helpers.LogLog;
import org.apache.log4j.spi.Configurator;
import org.apache.log4j.spi.LoggerRepository;

/**
 * Logging inside ElasticAM's containers (the AM and executors), set up by log4j 1 when the launch
 * command names this class as {@code log4j.configuratorClass}: the levels from the container's
 * properties file ({@code log4j.rootLogger}'s level and each {@code log4j.logger.<name>}), and two
 * appenders made here, to stderr and to a rolling file in the container's log directory.
 *
 * <p>Why not log4j's own {@code PropertyConfigurator} on the same file: it sets each appender's and
 * layout's options through {@code java.beans} introspection, and its date goes through a Calendar
 * and the locale data behind it. Measured outside YARN, setting up the same logging this way costs
 * about 35 ms less of a container's start-up CPU, and the container gets the same lines
 * (BENCHMARKS.md, issue 26, "The container's logging set up without log4j's configurator"). The
 * file stays the place the levels are written, readable by log4j's configurator too.
 */
public final class ContainerLogConfigurator implements Configurator {

  /** The keys the launch command sets as system properties; the file gives their defaults. */
  static final String LOG_DIR = "elasticam.log.dir";
  static final String LOG_FILE = "elasticam.log.file";
  static final String MAX_FILE_SIZE = "elasticam.log.maxFileSize";
  static final String MAX_BACKUP_INDEX = "elasticam.log.maxBackupIndex";
  private static final String LOGGER_PREFIX = "log4j.logger.";

  @Override
  public void doConfigure(URL url, LoggerRepository repository) {
    Properties props = new Properties();
    try (InputStream in = url.openStream()) {
      props.load(in);
    } catch (IOException e) {
      // Logging with the defaults below beats a container that logs nothing.
      LogLog.error("Could not read " + url + "; logging at INFO with the default files", e);
    }
    configure(props, repository);
  }

  @Override
  public void doConfigure(InputStream in, LoggerRepository repository) {
    Properties props = new Properties();
    try {
      props.load(in);
    } catch (IOException e) {
      LogLog.error("Could not read the logging configuration; logging at INFO with the default files", e);
    }
    configure(props, repository);
  }

  static void configure(Properties props, LoggerRepository repository) {
    repository.resetConfiguration();
    Logger root = repository.getRootLogger();
    root.setLevel(level(props.getProperty("log4j.rootLogger", "INFO"), Level.INFO));
    for (String key : props.stringPropertyNames()) {
      if (key.startsWith(LOGGER_PREFIX)) {
        repository.getLogger(key.substring(LOGGER_PREFIX.length())).setLevel(level(props.getProperty(key), null));
      }
    }
    ConsoleAppender stderr = new ConsoleAppender(new ContainerLayout(false), ConsoleAppender.SYSTEM_ERR);
    stderr.setName("stderr");
    root.addAppender(stderr);

    RollingFileAppender rolling = new RollingFileAppender();
    rolling.setName("file");
    rolling.setLayout(new ContainerLayout(true));
    rolling.setFile(setting(props, LOG_DIR, ".") + "/" + setting(props, LOG_FILE, "elasticam.log"));
    rolling.setMaxFileSize(setting(props, MAX_FILE_SIZE, "64MB"));
    try {
      rolling.setMaxBackupIndex(Integer.parseInt(setting(props, MAX_BACKUP_INDEX, "4").trim()));
    } catch (NumberFormatException e) {
      LogLog.warn(MAX_BACKUP_INDEX + " is not a number; keeping 4 old files");
      rolling.setMaxBackupIndex(4);
    }
    rolling.activateOptions();
    root.addAppender(rolling);
  }

  /** The level in "LEVEL, appender, ...", as log4j reads a logger's line; {@code otherwise} if none. */
  private static Level level(String line, Level otherwise) {
    return Level.toLevel(line.split(",", 2)[0].trim(), otherwise);
  }

  /** A system property first, then the file, as log4j substitutes ${...} in its own configuration. */
  private static String setting(Properties props, String key, String fallback) {
    String v = System.getProperty(key);
    return v != null ? v : props.getProperty(key, fallback);
  }
}
