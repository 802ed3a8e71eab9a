package org.elasticam.api;

import java.util.List;

/**
 * A user job: a set of stages, each a number of tasks, some reading the output of others. The
 * ApplicationMaster instantiates the class named by {@code --class} (it needs a public no-argument
 * constructor) and asks it for its stages once, with the job's arguments; executors then run the
 * stages' tasks.
 *
 * <pre>{@code
 * public final class Hello implements Job {
 *   public List<Stage> stages(String[] args) {
 *     return List.of(Stage.builder(0, "greet", HelloTask.class).tasks(4).build());
 *   }
 * }
 * }</pre>
 */
public interface Job {

  /**
   * The stages to run. Ids must be unique and parents must name stages of this list; a stage runs
   * when all its parents have finished.
   *
   * @throws Exception to fail the job before it starts, with the exception's message
   */
  List<Stage> stages(String[] args) throws Exception;
}
