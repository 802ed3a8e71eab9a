package org.elasticam.shuffle.protocol;

import java.util.regex.Pattern;

/** The shapes of the ids a request names; anything else is malformed (400), never a path. */
public final class ShuffleIds {

  private static final Pattern APP_ID = Pattern.compile("application_[0-9]{1,19}_[0-9]{1,10}");
  private static final Pattern EXECUTOR_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  private ShuffleIds() {}

  /** @throws IllegalArgumentException unless {@code id} looks like a YARN application id */
  public static String requireAppId(String id) {
    if (id == null || !APP_ID.matcher(id).matches()) {
      throw new IllegalArgumentException("not an application id: " + shorten(id));
    }
    return id;
  }

  /** @throws IllegalArgumentException unless {@code id} is 1-64 of [A-Za-z0-9_-] */
  public static String requireExecutorId(String id) {
    if (id == null || !EXECUTOR_ID.matcher(id).matches()) {
      throw new IllegalArgumentException("not an executor id ([A-Za-z0-9_-]{1,64}): " + shorten(id));
    }
    return id;
  }

  /** A non-negative decimal int without sign or leading zeros. */
  public static int parseId(String what, String text) {
    if (text == null || text.isEmpty() || text.length() > 10 || !text.chars().allMatch(c -> c >= '0' && c <= '9')
        || text.length() > 1 && text.charAt(0) == '0') {
      throw new IllegalArgumentException("bad " + what + ": " + shorten(text));
    }
    long v = Long.parseLong(text);
    if (v > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("bad " + what + ": " + shorten(text));
    }
    return (int) v;
  }

  /** Client input echoed in an error stays short. */
  static String shorten(String s) {
    if (s == null) {
      return "(missing)";
    }
    return s.length() <= 80 ? s : s.substring(0, 77) + "...";
  }
}
