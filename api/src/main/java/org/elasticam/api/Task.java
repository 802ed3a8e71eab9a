package org.elasticam.api;

/**
 * One unit of work, run in an executor. Implementations need a public no-argument constructor;
 * an instance runs one task attempt.
 */
public interface Task {

  /**
   * Runs the task. Returning normally is success; throwing fails this attempt (the driver retries
   * it up to {@code elasticam.task.maxFailures} times, then fails the job with the message).
   */
  void run(TaskContext context) throws Exception;
}
