package org.elasticam.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigValidationTest {

  private static List<String> problems(String... kv) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return ElasticConf.of(m).validate().stream().map(ConfigProblem::message).toList();
  }

  private static void assertOneProblem(String expected, String... kv) {
    assertEquals(List.of(expected), problems(kv));
  }

  @Test
  void negativeMinimum() {
    assertOneProblem("elasticam.dynamicAllocation.minExecutors = '-1': must be >= 0",
        "elasticam.dynamicAllocation.minExecutors", "-1");
  }

  @Test
  void zeroMaximum() {
    assertOneProblem("elasticam.dynamicAllocation.maxExecutors = '0': must be > 0",
        "elasticam.dynamicAllocation.maxExecutors", "0");
  }

  @Test
  void minimumAboveMaximum() {
    assertOneProblem("elasticam.dynamicAllocation.minExecutors = '5': must be <= elasticam.dynamicAllocation.maxExecutors (3)",
        "elasticam.dynamicAllocation.minExecutors", "5", "elasticam.dynamicAllocation.maxExecutors", "3");
  }

  @Test
  void elasticBarWhenIdleBelowTheBarWhenBusy() {
    assertOneProblem("elasticam.dynamicAllocation.elastic.worthLatencies.idle = '2': must be >= "
        + "elasticam.dynamicAllocation.elastic.worthLatencies.busy (3.0)",
        "elasticam.dynamicAllocation.elastic.worthLatencies.busy", "3", "elasticam.dynamicAllocation.elastic.worthLatencies.idle", "2");
    assertOneProblem("elasticam.dynamicAllocation.elastic.worthLatencies.busy = '0': must be > 0 and <= 1000",
        "elasticam.dynamicAllocation.elastic.worthLatencies.busy", "0");
  }

  @Test
  void initialOutsideBounds() {
    assertOneProblem("elasticam.dynamicAllocation.initialExecutors = '9': must be between minExecutors (1) and maxExecutors (4)",
        "elasticam.dynamicAllocation.minExecutors", "1", "elasticam.dynamicAllocation.maxExecutors", "4",
        "elasticam.dynamicAllocation.initialExecutors", "9");
  }

  @Test
  void backlogTimeoutsMustBePositive() {
    assertOneProblem("elasticam.dynamicAllocation.schedulerBacklogTimeout = '0': must be > 0",
        "elasticam.dynamicAllocation.schedulerBacklogTimeout", "0");
    assertOneProblem("elasticam.dynamicAllocation.sustainedSchedulerBacklogTimeout = '0s': must be > 0",
        "elasticam.dynamicAllocation.sustainedSchedulerBacklogTimeout", "0s");
  }

  @Test
  void advertisedAddressIsHostColonPort() {
    assertTrue(problems("elasticam.yarn.am.advertisedAddress", "gateway.example.com:30121").isEmpty());
    assertTrue(problems("elasticam.yarn.am.advertisedAddress", "10.0.0.7:1").isEmpty());
    for (String bad : List.of("gateway", "gateway:", ":80", "gateway:99999", "gateway:80/x", "a b:80")) {
      assertOneProblem("elasticam.yarn.am.advertisedAddress = '" + bad + "': must be host:port",
          "elasticam.yarn.am.advertisedAddress", bad);
    }
  }

  @Test
  void theIdleTimeoutMustBePositiveAsSparkRequires() {
    assertOneProblem("elasticam.dynamicAllocation.executorIdleTimeout = '0': must be > 0",
        "elasticam.dynamicAllocation.executorIdleTimeout", "0");
    assertOneProblem("elasticam.dynamicAllocation.executorIdleTimeout = '-1': must be > 0",
        "elasticam.dynamicAllocation.executorIdleTimeout", "-1");
    assertTrue(problems("elasticam.dynamicAllocation.cachedExecutorIdleTimeout", "0").isEmpty());
  }

  @Test
  void allocationRatioInZeroOne() {
    assertOneProblem("elasticam.dynamicAllocation.executorAllocationRatio = '0': must be > 0 and <= 1",
        "elasticam.dynamicAllocation.executorAllocationRatio", "0");
    assertOneProblem("elasticam.dynamicAllocation.executorAllocationRatio = '1.5': must be > 0 and <= 1",
        "elasticam.dynamicAllocation.executorAllocationRatio", "1.5");
    assertTrue(problems("elasticam.dynamicAllocation.executorAllocationRatio", "1").isEmpty());
  }

  @Test
  void coresAtLeastTaskCpus() {
    assertOneProblem("elasticam.executor.cores = '2': must be >= elasticam.task.cpus (3)",
        "elasticam.executor.cores", "2", "elasticam.task.cpus", "3");
    assertOneProblem("elasticam.task.cpus = '0': must be >= 1", "elasticam.task.cpus", "0");
  }

  @Test
  void memoryMustBePositive() {
    assertOneProblem("elasticam.executor.memory = '0': must be > 0", "elasticam.executor.memory", "0");
  }

  @Test
  void streamingAndBatchAreExclusive() {
    assertOneProblem("elasticam.streaming.dynamicAllocation.enabled = 'true': cannot be true together with"
            + " elasticam.dynamicAllocation.enabled; enable one of them",
        "elasticam.streaming.dynamicAllocation.enabled", "true", "elasticam.dynamicAllocation.enabled", "true",
        "elasticam.streaming.dynamicAllocation.maxExecutors", "8");
  }

  @Test
  void streamingNeedsAnExplicitMaximum() {
    assertOneProblem("elasticam.streaming.dynamicAllocation.maxExecutors (unset): must be set when"
        + " elasticam.streaming.dynamicAllocation.enabled is true", "elasticam.streaming.dynamicAllocation.enabled",
        "true");
  }

  @Test
  void dynamicAllocationNeedsShuffleServiceOrTracking() {
    List<String> p = problems("elasticam.dynamicAllocation.enabled", "true",
        "elasticam.dynamicAllocation.shuffleTracking.enabled", "false");
    assertEquals(1, p.size());
    assertTrue(p.get(0).contains("set elasticam.shuffle.service.enabled=true"), p.get(0));
    assertTrue(problems("elasticam.dynamicAllocation.enabled", "true",
        "elasticam.dynamicAllocation.shuffleTracking.enabled", "false",
        "elasticam.shuffle.service.enabled", "true").isEmpty());
  }

  @Test
  void heartbeatIntervalsMustBePositive() {
    assertOneProblem("elasticam.yarn.heartbeat.interval = '0': must be > 0", "elasticam.yarn.heartbeat.interval", "0");
    assertOneProblem("elasticam.yarn.initialAllocation.interval = '0ms': must be > 0",
        "elasticam.yarn.initialAllocation.interval", "0ms");
  }

  @Test
  void streamingRatios() {
    assertOneProblem("elasticam.streaming.dynamicAllocation.scalingUpRatio = '0.3': must be more than"
            + " elasticam.streaming.dynamicAllocation.scalingDownRatio (0.3)",
        "elasticam.streaming.dynamicAllocation.scalingUpRatio", "0.3");
  }

  @Test
  void principalNeedsKeytab() {
    assertOneProblem("elasticam.yarn.keytab (unset): elasticam.yarn.principal and elasticam.yarn.keytab must be set together",
        "elasticam.yarn.principal", "me@REALM");
  }

  @Test
  void shuffleServiceNameMustBeAnAuxServiceName() {
    assertOneProblem("elasticam.shuffle.service.name = 'my-shuffle': must match [A-Za-z_][A-Za-z0-9_]* (a YARN aux-service name)",
        "elasticam.shuffle.service.name", "my-shuffle");
  }

  @Test
  void everyBrokenRuleIsReportedAtOnceAndABrokenKeyDoesNotCascade() {
    List<String> p = problems(
        "elasticam.dynamicAllocation.minExecutors", "lots",
        "elasticam.dynamicAllocation.maxExecutors", "0",
        "elasticam.executor.memory", "huge",
        "elasticam.yarn.heartbeat.interval", "-5");
    assertEquals(List.of(
        "elasticam.dynamicAllocation.minExecutors = 'lots': not an integer",
        "elasticam.dynamicAllocation.maxExecutors = '0': must be > 0",
        "elasticam.executor.memory = 'huge': not a size (use e.g. 512m or 4g)",
        "elasticam.yarn.heartbeat.interval = '-5': must be > 0"), p);
  }

  @Test
  void validatedThrowsWithEveryProblemOnItsOwnLine() {
    ConfigException e = assertThrows(ConfigException.class, () -> ElasticConf.of(Map.of(
        "elasticam.executor.cores", "0", "elasticam.task.maxFailures", "0")).validated());
    assertEquals(2, e.problems().size());
    assertEquals("invalid configuration (2 problems):\n"
        + "  elasticam.executor.cores = '0': must be >= 1\n"
        + "  elasticam.task.maxFailures = '0': must be >= 1", e.getMessage());
  }
}
