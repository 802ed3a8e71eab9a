package org.elasticam.allocator.dynamic;

/** How a task attempt ended, for the policies' bookkeeping. */
public enum TaskOutcome {
  SUCCESS,
  /** Failed by its own fault: the index runs again, and counts as pending until then. */
  FAILED,
  /** Killed (a speculative race lost, a lost executor): the index may run again elsewhere. */
  KILLED
}
