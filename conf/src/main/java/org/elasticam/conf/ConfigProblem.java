package org.elasticam.conf;

import java.util.Objects;

/** One broken rule: the key, the value it has, and the rule in words. */
public final class ConfigProblem {

  private final String key;
  private final String value;
  private final String rule;

  /** @param value the raw value, or {@code null} when the key is unset; redacted for secret keys */
  public ConfigProblem(String key, String value, String rule) {
    this.key = key;
    this.value = value;
    this.rule = rule;
  }

  public String key() {
    return key;
  }

  public String value() {
    return value;
  }

  public String rule() {
    return rule;
  }

  /** One line for a user: {@code elasticam.x = 'v': must be > 0}. */
  public String message() {
    return value == null ? key + " (unset): " + rule : key + " = '" + value + "': " + rule;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ConfigProblem)) {
      return false;
    }
    ConfigProblem p = (ConfigProblem) o;
    return Objects.equals(key, p.key) && Objects.equals(value, p.value) && Objects.equals(rule, p.rule);
  }

  @Override
  public int hashCode() {
    int h = Objects.hashCode(key);
    h = 31 * h + Objects.hashCode(value);
    return 31 * h + Objects.hashCode(rule);
  }

  @Override
  public String toString() {
    return message();
  }
}
