package org.elasticam.api;

import java.nio.file.Path;
import java.util.Map;

/** What a running task knows of itself and of where it runs. */
public interface TaskContext {

  int stageId();

  /** The task's index within its stage: 0 … tasks − 1. */
  int partition();

  /** 0 for the first attempt, then 1, 2, … on retries. */
  int attempt();

  String executorId();

  /** The host as the NodeManager names it. */
  String host();

  /** The task's parameters, as the stage gave them. */
  Map<String, String> params();

  /**
   * A directory for the attempt's scratch files, made when first asked for and deleted with what
   * it holds when the attempt ends.
   */
  Path scratchDir();

  /**
   * Asks the driver whether this attempt may publish its output (rename its files into place,
   * write to an outside system): true for exactly one attempt of each task at a time, so an attempt
   * and its speculative copy never both publish. Ask once the output is complete and just before
   * publishing. After false, publish nothing and return: the attempt ends as killed (not failed)
   * whatever it does next, as another attempt publishes this task's output. Blocks for one round
   * trip to the driver.
   */
  boolean canCommit() throws java.io.IOException;

  /**
   * True once the driver asked for this attempt to stop (another attempt of the task won, its
   * executor is going, or its job or batch was abandoned). Long tasks should check it and then stop
   * at once, returning or throwing, as they like: either way the attempt ends as killed, not failed,
   * and nothing it wrote is committed (its shuffle output is discarded). The attempt's thread is
   * also interrupted, so blocking calls end with an {@link InterruptedException} or an interrupted
   * I/O error, which counts as being killed too. Output it wrote outside the shuffle is the task's
   * to publish only after {@link #canCommit()} said yes.
   */
  boolean isKilled();

  /**
   * The directory this attempt writes its output files to, when its stage declares an output
   * ({@link Stage.Builder#writesOutput}): a URI of the output's file system, a directory of this
   * attempt's own (it may not exist yet: create files in it with Hadoop's {@code FileSystem}, or
   * with {@code org.elasticam.io.OutputFiles}). When the task returns normally, the executor asks
   * the driver whether this attempt may commit ({@link #canCommit()}); the files of the one
   * attempt that may become the task's, and reach the stage's output directory when the job
   * succeeds. Files of a failed, killed or refused attempt are removed.
   *
   * @throws IllegalStateException when the stage declares no output
   */
  default String attemptOutputDir() {
    throw new IllegalStateException("stage " + stageId() + " declares no output directory (Stage.Builder.writesOutput)");
  }

  /**
   * Where this task writes its shuffle output.
   *
   * @throws IllegalStateException when the stage writes none ({@link Stage.Builder#writesShuffle})
   */
  ShuffleOutput shuffleOutput();

  /**
   * This task's partition of the shuffle written by parent stage {@code parentStageId} (as the job
   * named it: a streaming job's tasks use their batch's own stage ids): partition
   * {@link #partition()}, from every map task of that stage.
   *
   * @throws IllegalArgumentException when that stage is not a parent of this one that writes shuffle output
   */
  ShuffleInput shuffleInput(int parentStageId) throws java.io.IOException;

  /**
   * This attempt's counter named {@code name}, created at 0 on first use; the same counter for the
   * same name, from any thread of the attempt. A successful attempt reports its counters with its
   * end, and its stage sums them (see {@link Counters}, which has the built-in names and the limits).
   *
   * <pre>{@code
   * Counter malformed = ctx.counter("lines.malformed");
   * malformed.increment();
   * }</pre>
   *
   * @throws IllegalArgumentException for a name that breaks {@link Counters}' rules or is under
   *     {@link Counters#RESERVED_PREFIX}, which the executor counts itself
   * @throws IllegalStateException for a name beyond the {@link Counters#MAX_PER_TASK} an attempt may use
   */
  Counter counter(String name);
}
