package org.elasticam.rpc;

/**
 * Bounds on what the control plane accepts, so a broken or hostile peer cannot exhaust the AM:
 * the largest message (a task's parameters or error), the largest header block, and the most
 * concurrent calls on one connection (an executor needs one). A task's counters are bounded by
 * org.elasticam.api.Counters (names and their length): executors refuse more, and the driver drops
 * what is beyond them from an executor that sends more.
 */
public final class RpcLimits {

  public static final int MAX_MESSAGE_BYTES = 1024 * 1024;
  public static final int MAX_METADATA_BYTES = 8 * 1024;
  public static final int MAX_CALLS_PER_CONNECTION = 4;
  /** A task's error text is cut to this before it is sent. */
  public static final int MAX_ERROR_CHARS = 16 * 1024;

  private RpcLimits() {}
}
