package org.elasticam.am.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.elasticam.api.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.elasticam.engine.job.DagPlan;

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
    assertEquals(List.of("--jar", "j.jar", "--class", "a.B", "--", "--stages", "x", "y"), s.toArgs());
    assertEquals(s, JobSpec.parse(s.toArgs()), "what the client writes, the AM reads back");
  }

  @Test
  void argumentsAfterDashesAreTheJobsWhateverTheyLookLike() {
    JobSpec s = JobSpec.parse("--jar", "j.jar", "--class", "a.B", "--", "--batches", "4", "--", "$x");
    assertEquals(List.of("--batches", "4", "--", "$x"), s.userArgs());
    assertFalse(s.isStreaming());
    assertEquals(s, JobSpec.parse(s.toArgs()));
    assertEquals("sleep takes no arguments of its own, got 'x' after --", assertThrows(IllegalArgumentException.class,
        () -> JobSpec.parse("sleep", "--tasks", "1", "--", "x")).getMessage());
  }

  @Test
  void streamingJobsAndUserStreamingJobs() {
    JobSpec s = JobSpec.parse("streaming", "--batch-ms", "2000", "--batches", "40", "--rate", "step:10@0,30@5min");
    assertEquals(JobSpec.Kind.STREAMING, s.kind());
    assertTrue(s.isStreaming());
    assertEquals(null, s.partitionsOption());
    JobSpec u = JobSpec.parse("--batches", "4", "--rate", "const:5", "--jar", "j.jar", "--class", "a.B", "x");
    assertTrue(u.isStreaming());
    assertEquals(List.of("x"), u.userArgs());
    assertTrue(JobSpec.parse("--jar", "j.jar", "--class", "a.B", "--batches", "4", "--rate", "const:1").isStreaming(),
        "a user job's options may follow --class, up to its first argument");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "''|no job given: use sleep, trace, wordcount, streaming, or --jar J --class C",
      "dance|unknown job 'dance': use sleep, trace, wordcount, streaming, or --jar J --class C",
      "sleep --tasks|--tasks needs a value",
      "sleep --tasks 0|--tasks must be a whole number >= 1, got 0",
      "sleep --tasks many|--tasks must be a whole number, got 'many'",
      "sleep --fail-rate 2|--fail-rate must be between 0 and 1, got 2.0",
      "sleep --speed 3|unknown option '--speed' for sleep (allowed: --fail-rate, --seed, --stages, --task-ms, --tasks)",
      "trace|trace needs --file",
      "trace --file f --time-scale 0|--time-scale must be > 0, got 0",
      "--jar j.jar|user needs --class",
      "streaming --rate const:1|streaming needs --batches",
      "streaming --batches 3|streaming needs --rate",
      "streaming --batches 0 --rate const:1|--batches must be a whole number >= 1, got 0",
      "streaming --batches 2000001 --rate const:1|--batches must be at most 2000000, got 2000001",
      "streaming --batches 3 --rate const:1 --work gpu|--work must be sleep or cpu, got 'gpu'",
      "streaming --batches 3 --rate const:1 --partitions -2|--partitions must be a whole number >= 1, got -2",
      "streaming --batches 3 --rate const:1 --batch-ms 0|--batch-ms must be a whole number >= 1, got 0",
      "--batch-ms 500 --jar j.jar --class a.B|user needs --batches",
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
