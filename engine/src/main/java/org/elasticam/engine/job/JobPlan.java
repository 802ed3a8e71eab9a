package org.elasticam.engine.job;

import java.util.List;
import org.elasticam.api.Stage;

/**
 * When each stage of a job is submitted. A plain job submits a stage as soon as its parents are
 * done; a trace replay also keeps the driver's original pauses. No clock here: the driver passes
 * the time and schedules each submission for its {@code atMs}.
 */
public interface JobPlan {

  /** A stage to submit at {@code atMs}. */
  record Submission(Stage stage, long atMs) {}

  List<Submission> start(long nowMs);

  List<Submission> stageCompleted(int stageId, long nowMs);

  /**
   * How many stages of the whole job read stage {@code stageId}'s output, those not submitted yet
   * included; -1 when the plan cannot tell in advance (a stream's later batches).
   */
  int readersOf(int stageId);

  /** Every task of every stage, for progress. */
  int totalTasks();

  int totalStages();
}
