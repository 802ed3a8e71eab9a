package org.elasticam.conf;

import static org.elasticam.conf.DynamicAllocationKeys.INITIAL_EXECUTORS;
import static org.elasticam.conf.DynamicAllocationKeys.MAX_EXECUTORS;
import static org.elasticam.conf.DynamicAllocationKeys.MIN_EXECUTORS;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Checks a configuration against every rule at once: each key's own check, then the rules that
 * span keys (Spark's validateSettings and ours). Rules whose inputs are themselves broken are
 * skipped, so one mistake produces one message.
 */
final class ConfigValidator {

  private final ElasticConf conf;
  private final List<ConfigProblem> problems = new ArrayList<>();
  private final List<String> brokenKeys = new ArrayList<>();

  private ConfigValidator(ElasticConf conf) {
    this.conf = conf;
  }

  static List<ConfigProblem> validate(ElasticConf conf) {
    ConfigValidator v = new ConfigValidator(conf);
    AllKeys.all().forEach(v::checkKey);
    v.crossKeyRules();
    return Collections.unmodifiableList(v.problems);
  }

  private <T> void checkKey(ConfigKey<T> key) {
    Optional<String> raw = conf.source().get(key.name());
    if (!raw.isPresent()) {
      return;
    }
    try {
      T value = key.type().parse(raw.get());
      key.check().problem(value).ifPresent(rule -> broken(key, raw.get(), rule));
    } catch (IllegalArgumentException e) {
      broken(key, raw.get(), e.getMessage());
    }
  }

  private void broken(ConfigKey<?> key, String raw, String rule) {
    problems.add(new ConfigProblem(key.name(), ElasticConf.shown(key, raw), rule));
    brokenKeys.add(key.name());
  }

  private boolean ok(ConfigKey<?>... keys) {
    for (ConfigKey<?> k : keys) {
      if (brokenKeys.contains(k.name())) {
        return false;
      }
    }
    return true;
  }

  private void rule(ConfigKey<?> key, String rule) {
    String raw = conf.source().get(key.name()).map(r -> ElasticConf.shown(key, r)).orElse(null);
    problems.add(new ConfigProblem(key.name(), raw, rule));
  }

  private void crossKeyRules() {
    dynamicAllocationBounds();
    elasticBar();
    if (ok(ExecutorKeys.CORES, ExecutorKeys.TASK_CPUS)
        && conf.get(ExecutorKeys.CORES) < conf.get(ExecutorKeys.TASK_CPUS)) {
      rule(ExecutorKeys.CORES, "must be >= elasticam.task.cpus (" + conf.get(ExecutorKeys.TASK_CPUS) + ")");
    }
    boolean batch = ok(DynamicAllocationKeys.ENABLED) && conf.get(DynamicAllocationKeys.ENABLED);
    boolean streaming = ok(StreamingKeys.ENABLED) && conf.get(StreamingKeys.ENABLED);
    if (batch && streaming) {
      rule(StreamingKeys.ENABLED, "cannot be true together with elasticam.dynamicAllocation.enabled;"
          + " enable one of them");
    }
    if (batch && ok(ShuffleKeys.SERVICE_ENABLED, DynamicAllocationKeys.SHUFFLE_TRACKING)
        && !conf.get(ShuffleKeys.SERVICE_ENABLED) && !conf.get(DynamicAllocationKeys.SHUFFLE_TRACKING)) {
      rule(DynamicAllocationKeys.SHUFFLE_TRACKING, "dynamic allocation needs the shuffle service or"
          + " shuffle tracking: set elasticam.shuffle.service.enabled=true or"
          + " elasticam.dynamicAllocation.shuffleTracking.enabled=true");
    }
    streamingRules();
    if (ok(ExecutorKeys.HEARTBEAT_INTERVAL, ExecutorKeys.HEARTBEAT_TIMEOUT)
        && conf.get(ExecutorKeys.HEARTBEAT_TIMEOUT).compareTo(conf.get(ExecutorKeys.HEARTBEAT_INTERVAL)) <= 0) {
      rule(ExecutorKeys.HEARTBEAT_TIMEOUT, "must be longer than elasticam.executor.heartbeatInterval ("
          + Durations.format(conf.get(ExecutorKeys.HEARTBEAT_INTERVAL)) + ")");
    }
    javaOptions(ExecutorKeys.EXTRA_JAVA_OPTIONS, ExecutorKeys.MEMORY, "APP_ID", "EXECUTOR_ID");
    javaOptions(YarnKeys.AM_EXTRA_JAVA_OPTIONS, YarnKeys.AM_MEMORY, "APP_ID");
    if (conf.isSet(YarnKeys.PRINCIPAL) != conf.isSet(YarnKeys.KEYTAB)) {
      rule(conf.isSet(YarnKeys.PRINCIPAL) ? YarnKeys.KEYTAB : YarnKeys.PRINCIPAL,
          "elasticam.yarn.principal and elasticam.yarn.keytab must be set together");
    }
  }

  private void javaOptions(ConfigKey<String> options, ConfigKey<ByteSize> memory, String... placeholders) {
    if (ok(options) && conf.isSet(options)) {
      String problem = JavaOptions.problem(conf.get(options), memory.name(),
          new java.util.LinkedHashSet<>(java.util.Arrays.asList(placeholders)));
      if (problem != null) {
        rule(options, problem);
      }
    }
  }

  private void dynamicAllocationBounds() {
    if (!ok(MIN_EXECUTORS, MAX_EXECUTORS, INITIAL_EXECUTORS, ExecutorKeys.INSTANCES)) {
      return;
    }
    int min = conf.get(MIN_EXECUTORS);
    int max = conf.get(MAX_EXECUTORS);
    if (min > max) {
      rule(MIN_EXECUTORS, "must be <= elasticam.dynamicAllocation.maxExecutors (" + max + ")");
      return;
    }
    Optional<Integer> initial = conf.getOptional(INITIAL_EXECUTORS);
    if (initial.isPresent() && (initial.get() < min || initial.get() > max)) {
      rule(INITIAL_EXECUTORS, "must be between minExecutors (" + min + ") and maxExecutors (" + max + ")");
    }
    boolean dynamic = ok(DynamicAllocationKeys.ENABLED) && conf.get(DynamicAllocationKeys.ENABLED);
    Optional<Integer> instances = conf.getOptional(ExecutorKeys.INSTANCES);
    if (dynamic && instances.isPresent() && instances.get() > max) {
      rule(ExecutorKeys.INSTANCES, "with dynamic allocation, must be <= elasticam.dynamicAllocation.maxExecutors ("
          + max + ")");
    }
  }

  /** The elastic policy's bar for a new executor rises from its busy value to its idle one. */
  private void elasticBar() {
    if (ok(DynamicAllocationKeys.ELASTIC_WORTH_BUSY, DynamicAllocationKeys.ELASTIC_WORTH_IDLE)
        && conf.get(DynamicAllocationKeys.ELASTIC_WORTH_IDLE) < conf.get(DynamicAllocationKeys.ELASTIC_WORTH_BUSY)) {
      rule(DynamicAllocationKeys.ELASTIC_WORTH_IDLE, "must be >= elasticam.dynamicAllocation.elastic.worthLatencies.busy ("
          + conf.get(DynamicAllocationKeys.ELASTIC_WORTH_BUSY) + ")");
    }
  }

  private void streamingRules() {
    boolean enabled = ok(StreamingKeys.ENABLED) && conf.get(StreamingKeys.ENABLED);
    if (enabled && !conf.isSet(StreamingKeys.MAX_EXECUTORS)) {
      // rounds asks for maxExecutors at once when a batch is late: an unbounded default would ask
      // a shared cluster for everything it has.
      rule(StreamingKeys.MAX_EXECUTORS, "must be set when elasticam.streaming.dynamicAllocation.enabled is true");
    }
    if (ok(StreamingKeys.MIN_EXECUTORS, StreamingKeys.MAX_EXECUTORS)
        && conf.get(StreamingKeys.MIN_EXECUTORS) > conf.get(StreamingKeys.MAX_EXECUTORS)) {
      rule(StreamingKeys.MIN_EXECUTORS, "must be <= elasticam.streaming.dynamicAllocation.maxExecutors ("
          + conf.get(StreamingKeys.MAX_EXECUTORS) + ")");
    }
    if (ok(StreamingKeys.SCALING_UP_RATIO, StreamingKeys.SCALING_DOWN_RATIO)
        && conf.get(StreamingKeys.SCALING_UP_RATIO) <= conf.get(StreamingKeys.SCALING_DOWN_RATIO)) {
      rule(StreamingKeys.SCALING_UP_RATIO, "must be more than elasticam.streaming.dynamicAllocation.scalingDownRatio ("
          + conf.get(StreamingKeys.SCALING_DOWN_RATIO) + ")");
    }
  }
}
