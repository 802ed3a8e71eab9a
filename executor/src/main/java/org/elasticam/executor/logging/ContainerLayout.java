package org.elasticam.executor.logging;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.TimeZone;
import org.apache.log4j.Layout;
import org.apache.log4j.spi.LoggingEvent;

/**
 * One line per event, as log4j's {@code PatternLayout} writes {@code %d{ISO8601} %-5p %c{1}: %m%n}
 * (or, with the thread, {@code %d{ISO8601} %-5p [%t] %c{1}: %m%n}), and the same text. Written out
 * because log4j's ISO 8601 date goes through a {@link java.util.Calendar}, whose locale data are
 * about a third of what configuring a container's logging costs at start; this one takes the time
 * zone's offset and does the arithmetic. {@code ContainerLogConfiguratorTest} holds the two to the
 * same text.
 */
public final class ContainerLayout extends Layout {

  private final boolean withThread;
  private final TimeZone zone;
  /** The line's date to the second, "yyyy-MM-dd HH:mm:ss,", for the second it names. */
  private volatile Prefix prefix = new Prefix(Long.MIN_VALUE, "");

  private record Prefix(long second, String text) {
  }

  /** @param withThread whether each line names its thread ({@code [%t]}) */
  public ContainerLayout(boolean withThread) {
    this(withThread, TimeZone.getDefault());
  }

  ContainerLayout(boolean withThread, TimeZone zone) {
    this.withThread = withThread;
    this.zone = zone;
  }

  @Override
  public String format(LoggingEvent event) {
    StringBuilder b = new StringBuilder(128);
    appendDate(b, event.getTimeStamp());
    b.append(' ');
    String level = String.valueOf(event.getLevel());
    b.append(level);
    for (int i = level.length(); i < 5; i++) {
      b.append(' ');
    }
    b.append(' ');
    if (withThread) {
      b.append('[').append(event.getThreadName()).append("] ");
    }
    String logger = event.getLoggerName();
    if (logger != null) {
      // %c{1}: after the last dot but one that ends the name, as log4j's converter counts
      b.append(logger, logger.lastIndexOf('.', logger.length() - 2) + 1, logger.length());
    }
    b.append(": ");
    String message = event.getRenderedMessage();
    if (message != null) { // PatternLayout writes nothing for a null message, not "null"
      b.append(message);
    }
    b.append(LINE_SEP);
    return b.toString();
  }

  void appendDate(StringBuilder b, long epochMs) {
    long second = Math.floorDiv(epochMs, 1000L);
    Prefix p = prefix;
    if (p.second != second) {
      // The offset of this instant, daylight saving included, as the Calendar that log4j used takes it.
      int offsetSeconds = zone.getOffset(epochMs) / 1000;
      LocalDateTime t = LocalDateTime.ofEpochSecond(second, 0, ZoneOffset.ofTotalSeconds(offsetSeconds));
      StringBuilder d = new StringBuilder(24);
      pad(d, t.getYear(), 4).append('-');
      pad(d, t.getMonthValue(), 2).append('-');
      pad(d, t.getDayOfMonth(), 2).append(' ');
      pad(d, t.getHour(), 2).append(':');
      pad(d, t.getMinute(), 2).append(':');
      pad(d, t.getSecond(), 2).append(',');
      p = new Prefix(second, d.toString());
      prefix = p;
    }
    b.append(p.text);
    pad(b, (int) Math.floorMod(epochMs, 1000L), 3);
  }

  private static StringBuilder pad(StringBuilder b, int value, int width) {
    String s = Integer.toString(value);
    for (int i = s.length(); i < width; i++) {
      b.append('0');
    }
    return b.append(s);
  }

  /** The appender writes an event's exception itself, under its line, as with PatternLayout. */
  @Override
  public boolean ignoresThrowable() {
    return true;
  }

  @Override
  public void activateOptions() {
    // no options
  }
}
