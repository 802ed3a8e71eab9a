package org.elasticam.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ElasticConfTest {

  @Test
  void defaultsFollowSpark() {
    ElasticConf conf = ElasticConf.of(Map.of());
    assertEquals(Duration.ofSeconds(1), conf.get(DynamicAllocationKeys.BACKLOG_TIMEOUT));
    assertEquals(Duration.ofSeconds(1), conf.sustainedBacklogTimeout());
    assertEquals(Duration.ofSeconds(60), conf.get(DynamicAllocationKeys.IDLE_TIMEOUT));
    assertTrue(Durations.isInfinite(conf.get(DynamicAllocationKeys.CACHED_IDLE_TIMEOUT)));
    assertTrue(conf.get(DynamicAllocationKeys.SHUFFLE_TRACKING));
    assertTrue(Durations.isInfinite(conf.get(DynamicAllocationKeys.SHUFFLE_TRACKING_TIMEOUT)));
    assertFalse(conf.get(ShuffleKeys.SERVICE_ENABLED));
    assertEquals(25, conf.get(YarnKeys.LAUNCHER_THREADS));
    assertEquals(Duration.ofSeconds(3), conf.get(YarnKeys.HEARTBEAT_INTERVAL));
    assertEquals(Duration.ofMillis(200), conf.get(YarnKeys.INITIAL_ALLOCATION_INTERVAL));
    assertEquals(Duration.ofMillis(50), conf.get(YarnKeys.INITIAL_ALLOCATION_FIRST_POLLS));
    assertEquals(Duration.ofSeconds(3), conf.get(ExecutorKeys.LOCALITY_WAIT));
    assertEquals(4, conf.get(ExecutorKeys.TASK_MAX_FAILURES));
    assertTrue(conf.getOptional(ExecutorKeys.INSTANCES).isEmpty());
    assertTrue(conf.validate().isEmpty(), () -> conf.validate().toString());
  }

  @Test
  void sustainedBacklogFollowsBacklogUnlessSet() {
    assertEquals(Duration.ofSeconds(5), ElasticConf.of(Map.of(
        "elasticam.dynamicAllocation.schedulerBacklogTimeout", "5")).sustainedBacklogTimeout());
    assertEquals(Duration.ofMillis(300), ElasticConf.of(Map.of(
        "elasticam.dynamicAllocation.schedulerBacklogTimeout", "5",
        "elasticam.dynamicAllocation.sustainedSchedulerBacklogTimeout", "300ms")).sustainedBacklogTimeout());
  }

  @Test
  void memoryOverheadIsTenPercentWithA384Floor() {
    assertEquals(1024 + 384, ElasticConf.of(Map.of("elasticam.executor.memory", "1g")).executorContainerMebibytes());
    assertEquals(8192 + 819, ElasticConf.of(Map.of("elasticam.executor.memory", "8g")).executorContainerMebibytes());
  }

  @Test
  void explicitOverheadWinsOverTheFactor() {
    ElasticConf conf = ElasticConf.of(Map.of(
        "elasticam.executor.memory", "2048",
        "elasticam.executor.memoryOverhead", "819",
        "elasticam.executor.memoryOverheadFactor", "0.5"));
    assertEquals(2048 + 819, conf.executorContainerMebibytes());
  }

  @Test
  void overheadFactorHalfGivesOneAndAHalfTimesMemory() {
    ElasticConf conf = ElasticConf.of(Map.of(
        "elasticam.executor.memory", "2048",
        "elasticam.executor.memoryOverheadFactor", "0.5"));
    assertEquals(3072, conf.executorContainerMebibytes());
  }

  @Test
  void initialExecutorsIsTheLargestOfMinInitialAndInstances() {
    assertEquals(0, ElasticConf.of(Map.of()).initialExecutors());
    assertEquals(3, ElasticConf.of(Map.of("elasticam.dynamicAllocation.minExecutors", "3")).initialExecutors());
    assertEquals(5, ElasticConf.of(Map.of(
        "elasticam.dynamicAllocation.minExecutors", "3",
        "elasticam.dynamicAllocation.initialExecutors", "4",
        "elasticam.executor.instances", "5")).initialExecutors());
  }

  @Test
  void maxExecutorFailuresDefaultsToTwiceTheMaximumWithAFloorOfThree() {
    assertEquals(3, ElasticConf.of(Map.of()).maxExecutorFailures());
    assertEquals(3, ElasticConf.of(Map.of("elasticam.executor.instances", "1")).maxExecutorFailures());
    assertEquals(20, ElasticConf.of(Map.of("elasticam.executor.instances", "10")).maxExecutorFailures());
    assertEquals(16, ElasticConf.of(Map.of(
        "elasticam.executor.instances", "10",
        "elasticam.dynamicAllocation.enabled", "true",
        "elasticam.dynamicAllocation.maxExecutors", "8")).maxExecutorFailures());
    assertEquals(7, ElasticConf.of(Map.of("elasticam.yarn.maxExecutorFailures", "7")).maxExecutorFailures());
  }

  @Test
  void maxExecutorFailuresDoesNotOverflowWithUnboundedMaximum() {
    ElasticConf conf = ElasticConf.of(Map.of("elasticam.dynamicAllocation.enabled", "true"));
    assertEquals(Integer.MAX_VALUE, conf.maxExecutorFailures());
  }

  @Test
  void aBadValueNamesKeyValueAndRule() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> ElasticConf.of(Map.of("elasticam.executor.cores", "four")).get(ExecutorKeys.CORES));
    assertEquals("invalid configuration: elasticam.executor.cores = 'four': not an integer", e.getMessage());
  }

  @Test
  void displayRedactsSecretsAndShowsDefaults() {
    Map<String, String> shown = ElasticConf.of(Map.of("elasticam.executor.cores", "2")).resolvedForDisplay();
    assertEquals("2", shown.get("elasticam.executor.cores"));
    assertEquals("60s", shown.get("elasticam.dynamicAllocation.executorIdleTimeout"));
    assertEquals("minExecutors", shown.get("elasticam.dynamicAllocation.initialExecutors"));
    assertEquals(AllKeys.all().size(), shown.size());
  }

  @Test
  void overridesWin() {
    ConfigSource base = ConfigSource.of(Map.of("elasticam.executor.cores", "2", "elasticam.task.cpus", "1"));
    ConfigSource merged = base.overriddenBy(ConfigSource.of(Map.of("elasticam.executor.cores", "4")));
    ElasticConf conf = new ElasticConf(merged);
    assertEquals(4, conf.get(ExecutorKeys.CORES));
    assertEquals(4, conf.tasksPerExecutor());
  }

  @Test
  void everyKeyHasDocAndAValidDefault() {
    for (ConfigKey<?> key : AllKeys.all()) {
      assertFalse(key.doc().isBlank(), key.name());
      assertFalse(key.defaultDoc().isBlank(), key.name());
      assertTrue(key.name().startsWith("elasticam."), key.name());
      checkDefault(key);
    }
  }

  private static <T> void checkDefault(ConfigKey<T> key) {
    key.defaultValue().ifPresent(v -> assertTrue(key.check().problem(v).isEmpty(), key.name()));
  }
}
