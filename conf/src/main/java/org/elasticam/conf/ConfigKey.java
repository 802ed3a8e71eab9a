package org.elasticam.conf;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * One configuration key: its name, type, default, a one-line doc and a validator. Keys are
 * declared as constants in the {@code *Keys} holders and read through {@link ElasticConf}.
 *
 * @param <T> the parsed value's type
 */
public final class ConfigKey<T> {

  /** Checks one value on its own; cross-key rules live in {@link ConfigValidator}. */
  @FunctionalInterface
  public interface Check<T> {
    /** The broken rule in words ("must be >= 0"), or empty when the value is fine. */
    Optional<String> problem(T value);

    static <T> Check<T> none() {
      return v -> Optional.empty();
    }

    static <T> Check<T> that(Predicate<T> ok, String rule) {
      return v -> ok.test(v) ? Optional.empty() : Optional.of(rule);
    }
  }

  private final String name;
  private final ValueType<T> type;
  private final T defaultValue;
  private final String defaultDoc;
  private final String doc;
  private final Check<T> check;
  private final boolean secret;

  private ConfigKey(Builder<T> b) {
    this.name = Objects.requireNonNull(b.name);
    this.type = Objects.requireNonNull(b.type);
    this.defaultValue = b.defaultValue;
    this.defaultDoc = b.defaultDoc;
    this.doc = Objects.requireNonNull(b.doc, () -> name + " has no doc");
    this.check = b.check;
    this.secret = b.secret;
    if (!name.startsWith(ElasticConf.PREFIX)) {
      throw new IllegalArgumentException(name + " is outside " + ElasticConf.PREFIX);
    }
  }

  public static <T> Builder<T> key(String name, ValueType<T> type) {
    return new Builder<>(name, type);
  }

  public String name() {
    return name;
  }

  public ValueType<T> type() {
    return type;
  }

  /** The default, or empty when an unset key means "derived" or "not given". */
  public Optional<T> defaultValue() {
    return Optional.ofNullable(defaultValue);
  }

  /** The default as the docs show it. */
  public String defaultDoc() {
    if (defaultDoc != null) {
      return defaultDoc;
    }
    return defaultValue == null ? "(none)" : type.format(defaultValue);
  }

  public String doc() {
    return doc;
  }

  public Check<T> check() {
    return check;
  }

  /** Secret values are never printed: not in docs, logs, the event log or the UI. */
  public boolean isSecret() {
    return secret;
  }

  @Override
  public String toString() {
    return name;
  }

  /** Builds a {@link ConfigKey}. */
  public static final class Builder<T> {
    private final String name;
    private final ValueType<T> type;
    private T defaultValue;
    private String defaultDoc;
    private String doc;
    private Check<T> check = Check.none();
    private boolean secret;

    private Builder(String name, ValueType<T> type) {
      this.name = name;
      this.type = type;
    }

    public Builder<T> defaultValue(T value) {
      this.defaultValue = value;
      return this;
    }

    /** How the docs describe a default that is derived from other keys. */
    public Builder<T> defaultDoc(String text) {
      this.defaultDoc = text;
      return this;
    }

    public Builder<T> doc(String text) {
      this.doc = text;
      return this;
    }

    public Builder<T> check(Predicate<T> ok, String rule) {
      Check<T> previous = this.check;
      Check<T> added = Check.that(ok, rule);
      this.check = v -> {
        Optional<String> problem = previous.problem(v);
        return problem.isPresent() ? problem : added.problem(v);
      };
      return this;
    }

    public Builder<T> secret() {
      this.secret = true;
      return this;
    }

    public ConfigKey<T> build() {
      return new ConfigKey<>(this);
    }
  }
}
