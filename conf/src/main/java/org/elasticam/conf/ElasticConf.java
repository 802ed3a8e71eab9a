package org.elasticam.conf;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Typed, read-only access to ElasticAM's configuration, and the values derived from several keys
 * (the effective initial executors, container memory, the failure limit). Read once at start-up;
 * cores receive the values, never this object's source.
 */
public final class ElasticConf {

  public static final String PREFIX = "elasticam.";

  /** Spark's floor for memory overhead. */
  public static final ByteSize MIN_MEMORY_OVERHEAD = ByteSize.ofMebibytes(384);

  private static final String REDACTED = "*********(redacted)";

  private final ConfigSource source;

  public ElasticConf(ConfigSource source) {
    this.source = source;
  }

  public static ElasticConf of(Map<String, String> values) {
    return new ElasticConf(ConfigSource.of(values));
  }

  public ConfigSource source() {
    return source;
  }

  /**
   * The key's value, or its default.
   *
   * @throws ConfigException when the value does not parse, or the key is unset and has no default
   */
  public <T> T get(ConfigKey<T> key) {
    return getOptional(key).orElseThrow(
        () -> new ConfigException(Collections.singletonList(new ConfigProblem(key.name(), null, "must be set"))));
  }

  /** The key's value, its default, or empty for an unset key without a default. */
  public <T> Optional<T> getOptional(ConfigKey<T> key) {
    Optional<String> raw = source.get(key.name());
    if (!raw.isPresent()) {
      return key.defaultValue();
    }
    try {
      return Optional.of(key.type().parse(raw.get()));
    } catch (IllegalArgumentException e) {
      throw new ConfigException(
          Collections.singletonList(new ConfigProblem(key.name(), shown(key, raw.get()), e.getMessage())));
    }
  }

  public boolean isSet(ConfigKey<?> key) {
    return source.get(key.name()).isPresent();
  }

  /** Every broken rule, per key and across keys; empty when the configuration is usable. */
  public List<ConfigProblem> validate() {
    return ConfigValidator.validate(this);
  }

  /** @throws ConfigException listing every broken rule */
  public ElasticConf validated() {
    List<ConfigProblem> problems = validate();
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    return this;
  }

  /** Every known key with its effective value as text, secrets redacted: for logs, event log, UI. */
  public Map<String, String> resolvedForDisplay() {
    Map<String, String> out = new LinkedHashMap<>();
    for (ConfigKey<?> key : AllKeys.all()) {
      out.put(key.name(), display(key));
    }
    return out;
  }

  private <T> String display(ConfigKey<T> key) {
    Optional<String> raw = source.get(key.name());
    if (raw.isPresent()) {
      return shown(key, raw.get());
    }
    return key.defaultDoc();
  }

  /** The raw value as it may be shown to a user: redacted for secrets. */
  static String shown(ConfigKey<?> key, String raw) {
    return isSecretName(key) ? REDACTED : raw;
  }

  private static boolean isSecretName(ConfigKey<?> key) {
    String n = key.name().toLowerCase(Locale.ROOT);
    return key.isSecret() || n.contains("password") || n.contains("secret") || n.endsWith(".token");
  }

  // ---- values derived from several keys -------------------------------------------------------

  /** Tasks one executor runs at once: cores / task.cpus. */
  public int tasksPerExecutor() {
    return Math.max(1, get(ExecutorKeys.CORES) / get(ExecutorKeys.TASK_CPUS));
  }

  public boolean dynamicAllocationEnabled() {
    return get(DynamicAllocationKeys.ENABLED);
  }

  /** The starting target with dynamic allocation: max(min, initial, executor.instances), as Spark. */
  public int initialExecutors() {
    int min = get(DynamicAllocationKeys.MIN_EXECUTORS);
    int initial = getOptional(DynamicAllocationKeys.INITIAL_EXECUTORS).orElse(min);
    int instances = getOptional(ExecutorKeys.INSTANCES).orElse(0);
    return Math.max(min, Math.max(initial, instances));
  }

  public Duration sustainedBacklogTimeout() {
    return getOptional(DynamicAllocationKeys.SUSTAINED_BACKLOG_TIMEOUT)
        .orElseGet(() -> get(DynamicAllocationKeys.BACKLOG_TIMEOUT));
  }

  /** The most executors the application may hold at once, for the failure limit's default. */
  public int effectiveMaxExecutors() {
    if (get(StreamingKeys.ENABLED)) {
      return get(StreamingKeys.MAX_EXECUTORS);
    }
    if (dynamicAllocationEnabled()) {
      return get(DynamicAllocationKeys.MAX_EXECUTORS);
    }
    return getOptional(ExecutorKeys.INSTANCES).orElse(0);
  }

  /** max(3, 2 x the effective maximum), saturating instead of overflowing, unless set explicitly. */
  public int maxExecutorFailures() {
    return getOptional(YarnKeys.MAX_EXECUTOR_FAILURES).orElseGet(() -> {
      long doubled = 2L * effectiveMaxExecutors();
      return (int) Math.max(3, Math.min(Integer.MAX_VALUE, doubled));
    });
  }

  /** Memory overhead of an executor container: explicit key, else max(factor x memory, 384 MiB). */
  public ByteSize executorMemoryOverhead() {
    return memoryOverhead(get(ExecutorKeys.MEMORY));
  }

  /** Executor container size in MiB: heap + overhead. */
  public long executorContainerMebibytes() {
    return get(ExecutorKeys.MEMORY).mebibytes() + executorMemoryOverhead().mebibytes();
  }

  /** AM container size in MiB: heap + the same overhead rule (factor of the AM heap). */
  public long amContainerMebibytes() {
    ByteSize heap = get(YarnKeys.AM_MEMORY);
    long factorShare = (long) Math.ceil(get(ExecutorKeys.MEMORY_OVERHEAD_FACTOR) * heap.mebibytes());
    return heap.mebibytes() + Math.max(factorShare, MIN_MEMORY_OVERHEAD.mebibytes());
  }

  private ByteSize memoryOverhead(ByteSize heap) {
    Optional<ByteSize> explicit = getOptional(ExecutorKeys.MEMORY_OVERHEAD);
    if (explicit.isPresent()) {
      return explicit.get();
    }
    double factor = get(ExecutorKeys.MEMORY_OVERHEAD_FACTOR);
    long share = (long) (factor * heap.mebibytes());
    return ByteSize.ofMebibytes(Math.max(share, MIN_MEMORY_OVERHEAD.mebibytes()));
  }
}
