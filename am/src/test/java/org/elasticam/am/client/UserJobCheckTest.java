package org.elasticam.am.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import java.util.TreeSet;
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
}
