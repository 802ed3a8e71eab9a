package org.elasticam.conf;

/**
 * What an executor's launch command and the executor agree on about its start slot on the node
 * (elasticam.executor.startSlotsPerNode): when the command waited for a slot, this variable names
 * the FIFO into which the executor writes one line once it has registered, which hands the slot to
 * the next executor waiting on the node.
 */
public final class StartSlotEnv {

  /** The FIFO's path; unset when the container started without a slot. */
  public static final String FIFO = "ELASTICAM_START_SLOT";

  private StartSlotEnv() {}
}
