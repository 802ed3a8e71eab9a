package org.elasticam.conf;

/**
 * One broken rule: the key, the value it has, and the rule in words.
 *
 * @param value the raw value, or {@code null} when the key is unset; redacted for secret keys
 */
public record ConfigProblem(String key, String value, String rule) {

  /** One line for a user: {@code elasticam.x = 'v': must be > 0}. */
  public String message() {
    return value == null ? key + " (unset): " + rule : key + " = '" + value + "': " + rule;
  }

  @Override
  public String toString() {
    return message();
  }
}
