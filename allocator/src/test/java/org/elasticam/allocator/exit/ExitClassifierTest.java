package org.elasticam.allocator.exit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ExitClassifierTest {

  private static ExitVerdict classify(int status, String diagnostics) {
    return ExitClassifier.classify("container_1", "host1", status, diagnostics, false, false);
  }

  @ParameterizedTest(name = "{0}: failure={1} blamesNode={2}")
  @CsvSource({
      "0,     false, false, lost",
      "-102,  false, false, preempted",
      "-108,  false, false, preempted",
      "-106,  false, false, lost",
      "-105,  false, false, lost",
      "-107,  false, false, lost",
      "-100,  false, false, lost",
      "-101,  false, true,  disks",
      "40,    true,  true,  failed",
      "-104,  true,  false, memory",
      "-103,  true,  false, memory",
      "-109,  true,  false, failed",
      "1,     true,  true,  failed",
      "-1,    true,  true,  failed",
      "137,   true,  true,  failed",
      "-1000, true,  true,  failed",
  })
  void theTable(int status, boolean countsAsFailure, boolean blamesNode, String kind) {
    ExitVerdict v = classify(status, "");
    assertEquals(countsAsFailure, v.countsAsFailure());
    assertEquals(blamesNode, v.blamesNode());
    assertEquals(kind, v.kind());
  }

  @Test
  void releasedByUsIsNeverAFailure() {
    ExitVerdict v = ExitClassifier.classify("c", "h", 1, "", true, false);
    assertFalse(v.countsAsFailure());
    assertEquals("released", v.kind());
  }

  @Test
  void exitsDuringShutdownAreExpected() {
    ExitVerdict v = ExitClassifier.classify("c", "h", 143, "", false, true);
    assertFalse(v.countsAsFailure());
    assertEquals("app_end", v.kind());
  }

  @Test
  void physicalMemoryMessageQuotesUsageAndNamesTheKey() {
    String diag = "Container [pid=1,containerID=c] is running beyond physical memory limits. "
        + "Current usage: 2.1 MB of 2 GB physical memory used; 5.8 GB of 4.2 GB virtual memory used. Killing container.";
    ExitVerdict pmem = classify(ExitStatus.KILLED_EXCEEDED_PMEM, diag);
    assertTrue(pmem.message().contains("2.1 MB of 2 GB physical memory used"), pmem.message());
    assertTrue(pmem.message().contains("elasticam.executor.memoryOverhead"), pmem.message());
    ExitVerdict vmem = classify(ExitStatus.KILLED_EXCEEDED_VMEM, diag);
    assertTrue(vmem.message().contains("5.8 GB of 4.2 GB virtual memory used"), vmem.message());
    assertTrue(vmem.message().contains("yarn.nodemanager.vmem-check-enabled"), vmem.message());
  }

  @Test
  void memoryMessageWithoutUsageStillNamesTheKey() {
    ExitVerdict v = classify(ExitStatus.KILLED_EXCEEDED_PMEM, "killed");
    assertEquals("Container container_1 on host1 was killed by YARN for exceeding physical memory limits."
        + " Raise elasticam.executor.memoryOverhead (or elasticam.executor.memory).", v.message());
  }

  @Test
  void failureMessagesCarryFlattenedDiagnostics() {
    ExitVerdict v = classify(1, "Exception in thread main\n  at Foo.bar\n");
    assertEquals("Container container_1 on host1 failed with exit code 1; counted against the node."
        + " Diagnostics: Exception in thread main | at Foo.bar", v.message());
  }
}
