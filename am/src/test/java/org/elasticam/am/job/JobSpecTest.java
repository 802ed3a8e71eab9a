package org.elasticam.am.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.elasticam.api.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JobSpecTest {

  @Test
  void sleepRoundTrips() {
    JobSpec s = JobSpec.parse("sleep", "--stages", "2", "--tasks", "8", "--task-ms", "500");
    assertEquals(JobSpec.Kind.SLEEP, s.kind());
    assertEquals(List.of("sleep", "--stages", "2", "--tasks", "8", "--task-ms", "500"), s.toArgs());
  }

  @Test
  void userJobKeepsItsOwnArguments() {
    JobSpec s = JobSpec.parse("--jar", "j.jar", "--class", "a.B", "--stages", "x", "y");
    assertEquals(List.of("--stages", "x", "y"), s.userArgs());
    assertEquals(List.of("--jar", "j.jar", "--class", "a.B", "--stages", "x", "y"), s.toArgs());
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "''|no job given: use sleep, trace, wordcount, or --jar J --class C",
      "dance|unknown job 'dance': use sleep, trace, wordcount, or --jar J --class C",
      "sleep --tasks|--tasks needs a value",
      "sleep --tasks 0|--tasks must be a whole number >= 1, got 0",
      "sleep --tasks many|--tasks must be a whole number, got 'many'",
      "sleep --fail-rate 2|--fail-rate must be between 0 and 1, got 2.0",
      "sleep --speed 3|unknown option '--speed' for sleep (allowed: --fail-rate, --seed, --stages, --task-ms, --tasks)",
      "trace|trace needs --file",
      "trace --file f --time-scale 0|--time-scale must be > 0, got 0",
      "--jar j.jar|user needs --class",
  })
  void badInputGetsOneClearLine(String args, String message) {
    List<String> a = args.isEmpty() ? List.of() : List.of(args.split(" "));
    assertEquals(message, assertThrows(IllegalArgumentException.class, () -> JobSpec.parse(a)).getMessage());
  }

  @Test
  void sleepStagesRunOneAfterAnother() {
    List<Stage> stages = BuiltInJobs.sleepStages(JobSpec.parse("sleep", "--stages", "3", "--tasks", "2"));
    assertEquals(3, stages.size());
    assertEquals(List.of(1), stages.get(2).parents());
    assertEquals("1000", stages.get(0).tasks().get(0).params().get("ms"));
  }

  @Test
  void dagPlanSubmitsStagesWhenTheirParentsAreDone() {
    DagPlan p = new DagPlan(BuiltInJobs.sleepStages(JobSpec.parse("sleep", "--stages", "2", "--tasks", "1")));
    assertEquals(List.of(0), p.start(0).stream().map(s -> s.stage().id()).toList());
    assertEquals(List.of(1), p.stageCompleted(0, 5).stream().map(s -> s.stage().id()).toList());
    assertEquals(2, p.totalTasks());
  }

  @Test
  void dagPlanRefusesCyclesAndUnknownParents() {
    Stage a = Stage.builder(0, "a", "T").parents(1).tasks(1).build();
    Stage b = Stage.builder(1, "b", "T").parents(0).tasks(1).build();
    assertEquals("stages form a cycle through stage 0",
        assertThrows(IllegalArgumentException.class, () -> new DagPlan(List.of(a, b))).getMessage());
    Stage c = Stage.builder(2, "c", "T").parents(9).tasks(1).build();
    assertEquals("stage 2 names unknown parent 9",
        assertThrows(IllegalArgumentException.class, () -> new DagPlan(List.of(c))).getMessage());
  }
}
