package org.elasticam.api;

import java.util.List;

/**
 * A user streaming job: every batch interval the ApplicationMaster asks it for the stages of one
 * micro-batch, given that batch's time and input, and runs them; batches run one at a time, in
 * order. The class named by {@code --class} needs a public no-argument constructor; when it
 * implements this interface rather than {@link Job}, the job is a streaming one and takes the
 * streaming options ({@code --batch-ms}, {@code --batches}, {@code --rate}).
 *
 * <pre>{@code
 * public final class Counts implements StreamingJob {
 *   public List<Stage> batch(BatchInput in) {
 *     return List.of(Stage.builder(0, "count", CountTask.class).tasks(in.partitions()).build());
 *   }
 * }
 * }</pre>
 */
public interface StreamingJob {

  /**
   * Called once, before the first batch, with the job's arguments.
   *
   * @throws Exception to fail the job before it starts, with the exception's message
   */
  default void init(String[] args) throws Exception {}

  /**
   * The stages of one batch. Ids are the batch's own (0 to 999) and parents name stages of the
   * same list; the ApplicationMaster gives them application-wide ids when it submits them.
   *
   * @throws Exception to fail the job, with the exception's message
   */
  List<Stage> batch(BatchInput input) throws Exception;
}
