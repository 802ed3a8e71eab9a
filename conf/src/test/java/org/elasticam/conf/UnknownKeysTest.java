package org.elasticam.conf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class UnknownKeysTest {

  @Test
  void typoNamesTheClosestKey() {
    assertEquals(List.of("unknown configuration key elasticam.dynamicAllocation.maxExecutor;"
            + " did you mean elasticam.dynamicAllocation.maxExecutors?"),
        UnknownKeys.warnings(List.of("elasticam.dynamicAllocation.maxExecutor")));
  }

  @Test
  void caseSlipsAreFound() {
    assertEquals(List.of("unknown configuration key elasticam.executor.Memory;"
            + " did you mean elasticam.executor.memory?"),
        UnknownKeys.warnings(List.of("elasticam.executor.Memory")));
  }

  @Test
  void environmentVariablesAreAFamilyNotUnknownKeys() {
    assertEquals(List.of(), UnknownKeys.warnings(List.of("elasticam.yarn.appMasterEnv.JAVA_HOME",
        "elasticam.executorEnv.TZ")));
    assertEquals(1, UnknownKeys.warnings(List.of("elasticam.executorEnv.")).size(), "a family key names a variable");
  }

  @Test
  void aKeyThatDoesNothingHereSaysSo() {
    assertEquals(List.of("elasticam.dynamicAllocation.cachedExecutorIdleTimeout is set but has no effect: the job API"
        + " caches no data, so no executor is ever held for cached blocks"),
        UnknownKeys.warnings(List.of("elasticam.dynamicAllocation.cachedExecutorIdleTimeout")));
  }

  @Test
  void farOffKeysGetNoGuess() {
    assertEquals(List.of("unknown configuration key elasticam.totally.unrelated.setting.name (no similar key)"),
        UnknownKeys.warnings(List.of("elasticam.totally.unrelated.setting.name")));
  }

  @Test
  void knownAndForeignKeysAreQuiet() {
    assertEquals(List.of(), UnknownKeys.warnings(List.of(
        "elasticam.executor.cores", "yarn.resourcemanager.address", "spark.executor.cores")));
  }

  @Test
  void editDistance() {
    assertEquals(0, EditDistance.between("abc", "abc"));
    assertEquals(1, EditDistance.between("abc", "abd"));
    assertEquals(3, EditDistance.between("", "abc"));
  }
}
