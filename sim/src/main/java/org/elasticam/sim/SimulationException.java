package org.elasticam.sim;

/** A simulated run that cannot finish: the policy never gave waiting work an executor, or it failed. */
final class SimulationException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  SimulationException(String message) {
    super(message, null, false, false);
  }
}
