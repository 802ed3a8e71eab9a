package org.elasticam.conf;

import java.util.ArrayList;
import java.util.List;

/**
 * A JVM options string as users write it in {@code …extraJavaOptions}, split into the words the JVM
 * gets, the way a shell would split it but without expanding anything: blanks separate words;
 * single quotes keep everything inside; double quotes keep everything but {@code \"} and
 * {@code \\}; a backslash outside quotes keeps the next character.
 */
public final class JavaOptions {

  private JavaOptions() {}

  /** @throws IllegalArgumentException for an unclosed quote or a trailing backslash */
  public static List<String> split(String options) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean inWord = false;
    for (int i = 0; i < options.length(); i++) {
      char c = options.charAt(i);
      if (c == '\'') {
        int end = options.indexOf('\'', i + 1);
        if (end < 0) {
          throw new IllegalArgumentException("a single quote is not closed");
        }
        word.append(options, i + 1, end);
        i = end;
        inWord = true;
      } else if (c == '"') {
        i = doubleQuoted(options, i + 1, word);
        inWord = true;
      } else if (c == '\\') {
        if (i + 1 >= options.length()) {
          throw new IllegalArgumentException("a backslash ends the options");
        }
        word.append(options.charAt(++i));
        inWord = true;
      } else if (Character.isWhitespace(c)) {
        if (inWord) {
          words.add(word.toString());
          word.setLength(0);
          inWord = false;
        }
      } else {
        word.append(c);
        inWord = true;
      }
    }
    if (inWord) {
      words.add(word.toString());
    }
    return words;
  }

  /** Appends what stands between double quotes from {@code from}; returns the closing quote's index. */
  private static int doubleQuoted(String s, int from, StringBuilder word) {
    for (int i = from; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"') {
        return i;
      }
      if (c == '\\' && i + 1 < s.length() && (s.charAt(i + 1) == '"' || s.charAt(i + 1) == '\\')) {
        c = s.charAt(++i);
      }
      word.append(c);
    }
    throw new IllegalArgumentException("a double quote is not closed");
  }

  /**
   * Why these options cannot be the JVM's, or null when they can: they must split, must not set the
   * heap, which the memory key sizes together with the container, and may hold no YARN marker but
   * {@code <LOG_DIR>} and no placeholder but {@code placeholders}' ({@code {{APP_ID}}}…).
   */
  public static String problem(String options, String memoryKey, java.util.Set<String> placeholders) {
    List<String> words;
    try {
      words = split(options);
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
    for (String w : words) {
      if (w.startsWith("-Xmx") || w.startsWith("-XX:MaxHeapSize=")) {
        return "sets the heap (" + w + "); set " + memoryKey + " instead, which sizes the container with it";
      }
      String rest = w;
      for (String p : placeholders) {
        rest = rest.replace("{{" + p + "}}", "");
      }
      if (rest.contains("{{") || rest.contains("}}") || rest.contains("<CPS>")) {
        return "'" + w + "' holds a marker YARN would replace; the placeholders are {{"
            + String.join("}}, {{", placeholders) + "}} and <LOG_DIR>";
      }
    }
    return null;
  }
}
