package org.elasticam.conf;

import java.util.Locale;

/** An amount of memory or disk, in bytes. Parsed from {@code 512m}, {@code 4g}, {@code 1024k}. */
public final class ByteSize implements Comparable<ByteSize> {

  private static final long KIB = 1024L;
  private static final long MIB = KIB * 1024;
  private static final long GIB = MIB * 1024;
  private static final long TIB = GIB * 1024;

  private final long bytes;

  public ByteSize(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("a size cannot be negative: " + bytes);
    }
    this.bytes = bytes;
  }

  public long bytes() {
    return bytes;
  }

  public static ByteSize ofMebibytes(long mib) {
    return new ByteSize(Math.multiplyExact(mib, MIB));
  }

  /** Whole mebibytes, rounded up: YARN sizes containers in MiB. */
  public long mebibytes() {
    return (bytes + MIB - 1) / MIB;
  }

  /**
   * Parses a size; a bare number is in {@code bareUnitBytes} (Spark reads bare memory sizes as MiB).
   *
   * @throws IllegalArgumentException with a message fit for a user
   */
  public static ByteSize parse(String text, long bareUnitBytes) {
    String s = text.trim().toLowerCase(Locale.ROOT);
    if (s.endsWith("ib")) {
      s = s.substring(0, s.length() - 2);
    } else if (s.endsWith("b") && s.length() > 1 && !Character.isDigit(s.charAt(s.length() - 2))) {
      s = s.substring(0, s.length() - 1);
    }
    if (s.isEmpty()) {
      throw new IllegalArgumentException("not a size (use e.g. 512m or 4g)");
    }
    char last = s.charAt(s.length() - 1);
    long unit;
    switch (last) {
      case 'b':
        unit = 1;
        break;
      case 'k':
        unit = KIB;
        break;
      case 'm':
        unit = MIB;
        break;
      case 'g':
        unit = GIB;
        break;
      case 't':
        unit = TIB;
        break;
      default:
        unit = Character.isDigit(last) ? bareUnitBytes : -1;
    }
    String digits = Character.isDigit(last) ? s : s.substring(0, s.length() - 1).trim();
    if (unit < 0 || digits.isEmpty() || !digits.chars().allMatch(Character::isDigit)) {
      throw new IllegalArgumentException("not a size (use e.g. 512m or 4g)");
    }
    try {
      return new ByteSize(Math.multiplyExact(Long.parseLong(digits), unit));
    } catch (ArithmeticException | NumberFormatException e) {
      throw new IllegalArgumentException("size too large");
    }
  }

  @Override
  public int compareTo(ByteSize other) {
    return Long.compare(bytes, other.bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ByteSize && bytes == ((ByteSize) o).bytes;
  }

  @Override
  public int hashCode() {
    return Long.hashCode(bytes);
  }

  @Override
  public String toString() {
    if (bytes % GIB == 0 && bytes > 0) {
      return bytes / GIB + "g";
    }
    if (bytes % MIB == 0 && bytes > 0) {
      return bytes / MIB + "m";
    }
    if (bytes % KIB == 0 && bytes > 0) {
      return bytes / KIB + "k";
    }
    return bytes + "b";
  }
}
