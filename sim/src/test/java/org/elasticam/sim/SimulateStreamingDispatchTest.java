package org.elasticam.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code simulate --streaming} goes to the streaming simulator, with the batch simulator's world flags. */
class SimulateStreamingDispatchTest {

  private String out;
  private String err;

  private int run(String... args) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code = SimulateMain.run(args, new PrintStream(o, true, StandardCharsets.UTF_8),
        new PrintStream(e, true, StandardCharsets.UTF_8));
    out = o.toString(StandardCharsets.UTF_8);
    err = e.toString(StandardCharsets.UTF_8);
    return code;
  }

  @Test
  void streamingRunsWithoutATrace() {
    assertEquals(0, run("--streaming", "--batch-ms", "1000", "--rate", "const:10", "--batches", "20", "--start-ms",
        "500", "--one-machine", "--policy", "model"), err);
    assertTrue(out.startsWith("rate const:10, batch 1000 ms\n"), out);
    assertTrue(out.contains("\nmodel "), out);
  }

  @Test
  void streamingErrorsKeepTheCommandsPrefixAndExitCode() {
    assertEquals(2, run("--streaming", "--rate", "const:10"));
    assertEquals("elasticam simulate: --batch-ms N is required (see --streaming --help)\n", err);
  }

  @Test
  void batchHelpPointsAtStreaming() {
    assertEquals(0, run("--help"));
    assertTrue(out.contains("simulate --streaming --batch-ms N --rate PROFILE"), out);
  }
}
