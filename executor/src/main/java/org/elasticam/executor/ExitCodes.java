package org.elasticam.executor;

/** How an executor process ends; the AM's exit classification reads these from YARN. */
public final class ExitCodes {

  /** Told to stop by the driver. */
  public static final int OK = 0;
  /** Bad command line or environment. */
  public static final int USAGE = 2;
  /** The driver was unreachable for the heartbeat timeout. */
  public static final int DRIVER_LOST = 3;
  /** The driver refused the registration. */
  public static final int REFUSED = 4;
  /** An unexpected error in the executor itself. */
  public static final int INTERNAL = 5;

  private ExitCodes() {}
}
