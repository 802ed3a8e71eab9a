package org.elasticam.report;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The local file a path the user typed names: a plain path is one, and so is a {@code file:} URI
 * in any of its spellings; a URI of another scheme ({@code hdfs://…}) is not.
 */
public final class LocalFiles {

  private LocalFiles() {}

  /** A plain path, or the path of a {@code file:} URI; empty for any other scheme. */
  public static Optional<Path> of(String location) {
    int colon = location.indexOf(':');
    int slash = location.indexOf('/');
    boolean hasScheme = colon > 1 && (slash < 0 || colon < slash)
        && location.substring(0, colon).chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '+' || c == '-'
            || c == '.');
    if (!hasScheme) {
      return Optional.of(Path.of(location));
    }
    if (!location.regionMatches(true, 0, "file:", 0, 5)) {
      return Optional.empty();
    }
    // file:/a, file:///a and file://localhost/a all name /a. Hadoop prints paths unencoded, java.net.URI
    // percent-encodes them: the path as written when that file exists, else decoded.
    String rest = location.substring(5);
    if (rest.startsWith("//")) {
      int end = rest.indexOf('/', 2);
      rest = end < 0 ? "/" : rest.substring(end);
    }
    Path literal = Path.of(rest);
    if (Files.exists(literal) || rest.indexOf('%') < 0) {
      return Optional.of(literal);
    }
    try {
      return Optional.of(Path.of(URI.create("file://" + rest).getPath()));
    } catch (IllegalArgumentException e) {
      return Optional.of(literal);
    }
  }
}
