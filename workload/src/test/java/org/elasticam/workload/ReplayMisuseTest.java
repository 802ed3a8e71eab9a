package org.elasticam.workload;

import static org.elasticam.workload.TraceLines.simpleStage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A caller that drives the replay out of order is told so at once, not left to deadlock. */
class ReplayMisuseTest {

  @TempDir
  Path dir;

  private Trace trace;
  private Replay replay;

  @BeforeEach
  void plan() throws Exception {
    trace = TraceLines.read(dir,
        simpleStage(0, 0, 100, List.of(), 10),
        simpleStage(1, 150, 200, List.of(0), 10));
    replay = Replay.plan(trace, 1, List.of());
  }

  @Test
  void anUnknownStageIsAnArgumentError() {
    replay.start(0);

    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> replay.stageCompleted(9, 10));
    assertEquals("stage 9 is not in the trace", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> replay.stage(9));
  }

  @Test
  void completingAStageTwiceIsAStateError() {
    replay.start(0);
    replay.stageCompleted(0, 10);

    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> replay.stageCompleted(0, 20));
    assertEquals("stage 0 has already completed", e.getMessage());
  }

  @Test
  void completingAStageNotYetSubmittedIsAStateError() {
    replay.start(0);

    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> replay.stageCompleted(1, 10));
    assertEquals("stage 1 has not been submitted yet", e.getMessage());
  }

  @Test
  void completingBeforeTheStartIsAStateError() {
    assertThrows(IllegalStateException.class, () -> replay.stageCompleted(0, 10));
  }

  @Test
  void startingTwiceIsAStateError() {
    replay.start(0);

    assertThrows(IllegalStateException.class, () -> replay.start(5));
  }

  @ParameterizedTest
  @ValueSource(doubles = {0, -1, Double.NaN, Double.POSITIVE_INFINITY})
  void theTimeScaleMustBePositiveAndFinite(double timeScale) {
    assertThrows(IllegalArgumentException.class, () -> Replay.plan(trace, timeScale, List.of()));
  }
}
