package org.elasticam.am.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.elasticam.api.HashPartitioner;
import org.elasticam.api.KeyOrder;
import org.elasticam.api.ShuffleSpec;
import org.elasticam.api.Stage;
import org.elasticam.api.TaskSpec;
import org.junit.jupiter.api.Test;

class UserJobCheckTest {

  private static final Set<String> JAR = new TreeSet<>(Set.of("com.example.GroupSum", "com.example.GroupSum$MapTask",
      "com.example.GroupSum$ReduceTask", "com.example.GroupSum$1", "com.example.util.Csv", "org.other.MapTask"));

  @Test
  void aNestedClassWrittenWithADotAndTheSameNameInAnotherPackageComeFirst() {
    assertEquals(" (did you mean com.example.GroupSum$MapTask, org.other.MapTask, com.example.GroupSum$ReduceTask?)",
        UserJobCheck.didYouMean("com.example.GroupSum.MapTask", JAR));
  }

  @Test
  void thenTheFewestEditsAway() {
    assertEquals(" (did you mean com.example.GroupSum?)", UserJobCheck.didYouMean("com.example.GropSum", JAR));
    assertEquals(" (did you mean com.example.util.Csv?)", UserJobCheck.didYouMean("com.example.util.CSV", JAR));
    assertEquals("", UserJobCheck.didYouMean("net.nothing.Like.It", JAR));
  }

  private static Stage mapStage(ShuffleSpec spec) {
    return new Stage(2, "parse", List.of(), Noop.class.getName(), List.of(TaskSpec.EMPTY), 3, spec);
  }

  private static String refusal(ShuffleSpec spec) {
    return assertThrows(UsageException.class, () -> UserJobCheck.checkStageClasses(mapStage(spec),
        UserJobCheckTest.class.getClassLoader(), JAR)).getMessage();
  }

  public static final class Noop implements org.elasticam.api.Task {
    @Override
    public void run(org.elasticam.api.TaskContext context) {}
  }

  @Test
  void aShuffleClassMustExistAndBeWhatItIsNamedFor() throws UsageException {
    assertEquals("stage 2 (parse) partitions its shuffle with com.example.GroupSum.MapTask, which is neither in the"
        + " user jar nor built in (did you mean com.example.GroupSum$MapTask, org.other.MapTask,"
        + " com.example.GroupSum$ReduceTask?)",
        refusal(new ShuffleSpec("com.example.GroupSum.MapTask", "", "", Map.of())));
    assertEquals("stage 2 (parse) combines its shuffle with " + HashPartitioner.class.getName() + ", which does not"
        + " implement org.elasticam.api.Combiner", refusal(new ShuffleSpec("", "", HashPartitioner.class.getName(),
        Map.of())));
    assertEquals("stage 2 (parse) sorts its shuffle with " + Noop.class.getName() + ", which does not implement"
        + " org.elasticam.api.KeyOrder", refusal(new ShuffleSpec("", Noop.class.getName(), "", Map.of())));
    UserJobCheck.checkStageClasses(mapStage(new ShuffleSpec(HashPartitioner.class.getName(),
        KeyOrder.Descending.class.getName(), "", Map.of())), UserJobCheckTest.class.getClassLoader(), JAR);
  }
}
