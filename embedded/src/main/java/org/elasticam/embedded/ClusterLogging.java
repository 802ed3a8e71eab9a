package org.elasticam.embedded;

import java.io.IOException;
import java.nio.file.Path;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;
import org.apache.log4j.FileAppender;
import org.apache.log4j.Level;
import org.apache.log4j.LogManager;
import org.apache.log4j.Logger;
import org.apache.log4j.PatternLayout;

/**
 * Sends the daemons' logging to a file: a user of {@code bin/elasticam run} wants the job's output
 * on the terminal, not thousands of daemon lines. Hadoop 3.4 logs through SLF4J into reload4j
 * (the log4j 1.x API), so the root log4j logger is where the daemons write; the web apps' Jersey
 * and Guice log through java.util.logging, which is forwarded there too.
 */
final class ClusterLogging {

  private static final String PATTERN = "%d{ISO8601} %-5p [%t] %c{2}: %m%n";

  private ClusterLogging() {}

  /** Replaces every root appender and handler (the console ones included) by {@code file}, at INFO. */
  static void toFile(Path file) throws IOException {
    Logger root = LogManager.getRootLogger();
    FileAppender appender = new FileAppender(new PatternLayout(PATTERN), file.toString(), false);
    appender.setName("elasticam-embedded-cluster");
    root.removeAllAppenders();
    root.addAppender(appender);
    root.setLevel(Level.INFO);

    java.util.logging.Logger julRoot = java.util.logging.LogManager.getLogManager().getLogger("");
    for (Handler h : julRoot.getHandlers()) {
      julRoot.removeHandler(h);
    }
    julRoot.addHandler(new ToLog4j());
  }

  /** java.util.logging records into log4j, under the same logger name. */
  private static final class ToLog4j extends Handler {

    private final SimpleFormatter formatter = new SimpleFormatter();

    @Override
    public void publish(LogRecord r) {
      Level level = r.getLevel().intValue() >= java.util.logging.Level.SEVERE.intValue() ? Level.ERROR
          : r.getLevel().intValue() >= java.util.logging.Level.WARNING.intValue() ? Level.WARN
          : r.getLevel().intValue() >= java.util.logging.Level.INFO.intValue() ? Level.INFO
          : Level.DEBUG;
      Logger.getLogger(String.valueOf(r.getLoggerName())).log(level, formatter.formatMessage(r), r.getThrown());
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
  }
}
