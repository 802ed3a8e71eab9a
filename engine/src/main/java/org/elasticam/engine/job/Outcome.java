package org.elasticam.engine.job;

/** How the job ended. */
public record Outcome(Status status, String diagnostics) {

  /** The application's final status, as YARN records it. */
  public enum Status { SUCCEEDED, FAILED, KILLED }

  public static Outcome succeeded(String diagnostics) {
    return new Outcome(Status.SUCCEEDED, diagnostics);
  }

  public static Outcome failed(String diagnostics) {
    return new Outcome(Status.FAILED, diagnostics);
  }
}
