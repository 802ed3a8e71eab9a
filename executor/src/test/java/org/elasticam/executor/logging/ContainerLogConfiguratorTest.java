package org.elasticam.executor.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TimeZone;
import java.util.TreeMap;
import org.apache.log4j.Appender;
import org.apache.log4j.ConsoleAppender;
import org.apache.log4j.Hierarchy;
import org.apache.log4j.Layout;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.PropertyConfigurator;
import org.apache.log4j.RollingFileAppender;
import org.apache.log4j.helpers.ISO8601DateFormat;
import org.apache.log4j.spi.LoggingEvent;
import org.apache.log4j.spi.RootLogger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The containers' logging set up by {@link ContainerLogConfigurator} is the logging log4j's own
 * configurator makes from the same file: the same levels, the same appenders writing to the same
 * files, and the same text for every line.
 */
class ContainerLogConfiguratorTest {

  private static final String FILE = "/elasticam-container-log4j.properties";

  @TempDir
  Path dir;

  private final List<Hierarchy> made = new ArrayList<>();

  @BeforeEach
  void logDir() {
    System.setProperty(ContainerLogConfigurator.LOG_DIR, dir.toString());
    System.setProperty(ContainerLogConfigurator.LOG_FILE, "executor.log");
  }

  @AfterEach
  void close() {
    made.forEach(Hierarchy::shutdown);
    System.clearProperty(ContainerLogConfigurator.LOG_DIR);
    System.clearProperty(ContainerLogConfigurator.LOG_FILE);
  }

  @Test
  void sameLevelsAndAppendersAsLog4jsConfigurator() throws IOException {
    Hierarchy theirs = log4jsOwn();
    Hierarchy ours = ours();

    Properties file = file();
    List<String> names = new ArrayList<>(List.of("org.elasticam.executor.ExecutorMain", "org.elasticam.am.AmMain",
        "io.grpc.netty.NettyClientTransport", "org.apache.hadoop.conf.Configuration", "com.example.UserTask"));
    for (String key : file.stringPropertyNames()) {
      if (key.startsWith("log4j.logger.")) {
        names.add(key.substring("log4j.logger.".length()));
      }
    }
    assertTrue(names.size() > 5, "the file names loggers' levels: " + names);
    assertEquals(theirs.getRootLogger().getLevel(), ours.getRootLogger().getLevel());
    for (String name : names) {
      assertEquals(theirs.getLogger(name).getEffectiveLevel(), ours.getLogger(name).getEffectiveLevel(), name);
    }

    Map<String, Appender> t = appenders(theirs);
    Map<String, Appender> o = appenders(ours);
    assertEquals(t.keySet(), o.keySet());
    assertEquals(List.of("file", "stderr"), new ArrayList<>(o.keySet()));
    ConsoleAppender tc = assertInstanceOf(ConsoleAppender.class, t.get("stderr"));
    ConsoleAppender oc = assertInstanceOf(ConsoleAppender.class, o.get("stderr"));
    assertEquals(tc.getTarget(), oc.getTarget());
    assertEquals(ConsoleAppender.SYSTEM_ERR, oc.getTarget());
    assertEquals(tc.getImmediateFlush(), oc.getImmediateFlush());
    RollingFileAppender tf = assertInstanceOf(RollingFileAppender.class, t.get("file"));
    RollingFileAppender of = assertInstanceOf(RollingFileAppender.class, o.get("file"));
    assertEquals(dir.resolve("executor.log").toString(), of.getFile());
    assertEquals(tf.getFile(), of.getFile());
    assertEquals(64L << 20, of.getMaximumFileSize());
    assertEquals(tf.getMaximumFileSize(), of.getMaximumFileSize());
    assertEquals(tf.getMaxBackupIndex(), of.getMaxBackupIndex());
    assertEquals(tf.getAppend(), of.getAppend());
    assertEquals(tf.getBufferedIO(), of.getBufferedIO());
    assertEquals(tf.getImmediateFlush(), of.getImmediateFlush());
    assertEquals(tf.getThreshold(), of.getThreshold());
  }

  @Test
  void everyLineReadsAsLog4jsPatternWritesIt() throws IOException {
    Map<String, Appender> t = appenders(log4jsOwn());
    Map<String, Appender> o = appenders(ours());
    Random random = new Random(26);
    List<Long> times = new ArrayList<>(List.of(0L, 999L, 1_000L, System.currentTimeMillis(),
        Instant.parse("2026-03-29T01:00:00Z").toEpochMilli(), Instant.parse("2026-10-25T00:59:59.999Z").toEpochMilli(),
        Instant.parse("2099-12-31T23:59:59.999Z").toEpochMilli()));
    for (int i = 0; i < 200; i++) {
      times.add((long) (random.nextDouble() * 4_102_444_800_000L));
    }
    Collections.sort(times.subList(3, times.size())); // one layout sees the seconds in order, and back again
    times.add(5_000L);
    Level[] levels = {Level.TRACE, Level.DEBUG, Level.INFO, Level.WARN, Level.ERROR, Level.FATAL};
    String[] loggers = {"org.elasticam.executor.ExecutorMain", "NoPackage", "trailing.", "a.b.c.D$Inner"};
    String[] threads = {"main", "grpc-default-executor-0", "task 3.1 (stage 2)", ""};
    for (String name : List.of("stderr", "file")) {
      Layout theirs = t.get(name).getLayout();
      Layout ours = o.get(name).getLayout();
      assertEquals(theirs.ignoresThrowable(), ours.ignoresThrowable(), name);
      for (int i = 0; i < times.size(); i++) {
        LoggingEvent e = new LoggingEvent(Logger.class.getName(), Logger.getLogger(loggers[i % loggers.length]),
            times.get(i), levels[i % levels.length], i % 7 == 0 ? null : "message " + i + " {with} %s and\ttabs",
            threads[i % threads.length], null, null, null, null);
        assertEquals(theirs.format(e), ours.format(e), name + " at " + Instant.ofEpochMilli(times.get(i)));
      }
    }
  }

  @Test
  void datesAsLog4jsIso8601InZonesWithOtherRules() {
    Random random = new Random(31);
    for (String id : List.of("UTC", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham",
        "America/St_Johns", "Europe/Dublin")) {
      TimeZone zone = TimeZone.getTimeZone(id);
      ContainerLayout ours = new ContainerLayout(false, zone);
      ISO8601DateFormat theirs = new ISO8601DateFormat(zone);
      long t = Instant.parse("2025-01-01T00:00:00Z").toEpochMilli();
      // Every quarter hour and a random millisecond through two years: each transition of each zone.
      for (int i = 0; i < 2 * 365 * 96; i++) {
        long ms = t + i * 900_000L + random.nextInt(1000);
        StringBuilder b = new StringBuilder();
        ours.appendDate(b, ms);
        assertEquals(theirs.format(new Date(ms)), b.toString(), id + " at " + Instant.ofEpochMilli(ms));
      }
    }
  }

  @Test
  void writesWhereTheLaunchCommandSaysAndFallsBackWhenTheFileCannotBeRead() throws IOException {
    Hierarchy h = ours();
    h.getLogger("org.elasticam.executor.ExecutorMain").info("registered");
    h.getLogger("org.apache.hadoop.conf.Configuration").info("below WARN: not written");
    String written = Files.readString(dir.resolve("executor.log"));
    assertTrue(written.matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3} INFO  \\[main\\] ExecutorMain: registered\\R"),
        written);

    // A file that cannot be read: INFO at the root, both appenders, the log where the launch command said.
    Hierarchy fallback = hierarchy();
    new ContainerLogConfigurator().doConfigure(new URL("file:" + dir.resolve("missing.properties")), fallback);
    assertEquals(Level.INFO, fallback.getRootLogger().getLevel());
    assertEquals(List.of("file", "stderr"), new ArrayList<>(appenders(fallback).keySet()));

    Properties bad = file();
    bad.setProperty(ContainerLogConfigurator.MAX_BACKUP_INDEX, "four");
    Hierarchy badIndex = hierarchy();
    ContainerLogConfigurator.configure(bad, badIndex);
    assertEquals(4, ((RollingFileAppender) appenders(badIndex).get("file")).getMaxBackupIndex());
  }

  private Hierarchy log4jsOwn() throws IOException {
    Hierarchy h = hierarchy();
    new PropertyConfigurator().doConfigure(file(), h);
    return h;
  }

  private Hierarchy ours() {
    Hierarchy h = hierarchy();
    URL url = getClass().getResource(FILE);
    assertNotNull(url, FILE);
    new ContainerLogConfigurator().doConfigure(url, h);
    return h;
  }

  private Hierarchy hierarchy() {
    Hierarchy h = new Hierarchy(new RootLogger(Level.DEBUG));
    made.add(h);
    return h;
  }

  private static Properties file() throws IOException {
    Properties p = new Properties();
    try (InputStream in = ContainerLogConfiguratorTest.class.getResourceAsStream(FILE)) {
      p.load(in);
    }
    return p;
  }

  private static Map<String, Appender> appenders(Hierarchy h) {
    Map<String, Appender> byName = new TreeMap<>();
    for (Object a : Collections.list(h.getRootLogger().getAllAppenders())) {
      byName.put(((Appender) a).getName(), (Appender) a);
    }
    return byName;
  }
}
